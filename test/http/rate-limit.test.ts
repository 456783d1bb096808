import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A well-formed key that no one issued: verifying it takes a database lookup. */
const randomKey = () => `Bearer ask_${randomBytes(32).toString('base64url')}`;

describe('rate limit', () => {
  let t: TestApp;
  before(async () => {
    // A window start, so the whole test stays inside one minute of the injected clock.
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' }, now: Date.parse('2027-01-01T00:00:00Z') });
  });
  after(() => t.close());

  const list = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/pets', headers });

  it('within the limit > answers normally with RateLimit headers counting down', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await list(t.auth);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['ratelimit-limit'], '3');
      assert.equal(response.headers['ratelimit-reset'], '60');
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
  });

  it('over the limit > answers 429 rate_limited with Retry-After until the next window', async () => {
    t.clock.now += 15_000;
    const response = await list(t.auth);
    assert.equal(response.statusCode, 429);
    assert.deepEqual(response.json(), { code: 'rate_limited', message: response.json().message, status: 429 });
    assert.equal(response.headers['retry-after'], '45');
    assert.equal(response.headers['ratelimit-remaining'], '0');

    t.clock.now += 45_000;
    assert.equal((await list(t.auth)).statusCode, 200);
  });

  it('another key > has its own allowance', async () => {
    const other = await issueApiKey(t.database.db, { name: 'other' });
    assert.equal((await list({ authorization: `Bearer ${other.key}` })).statusCode, 200);
  });

  it('an address whose keys keep failing verification > is refused before any further key lookup', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' }, now: Date.parse('2027-01-01T00:00:00Z') });
    try {
      const list = (authorization?: string) => other.app.inject({ method: 'GET', url: '/v1/pets', headers: authorization ? { authorization } : {} });
      // A key used before the trouble starts is in this process's cache.
      assert.equal((await list(other.auth.authorization)).statusCode, 200);
      const uncached = await issueApiKey(other.database.db, { name: 'not yet used' }, () => other.clock.now);

      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await list(randomKey())).statusCode);
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      const refused = await list(`Bearer ${uncached.key}`);
      assert.equal(refused.statusCode, 429, 'a key that would need a lookup waits for the next window');
      assert.match(refused.json().message, /failed verification/);
      assert.equal(refused.headers['retry-after'], '60');

      // What needs no lookup is not held up: the cached key works, and missing keys get their 401.
      assert.equal((await list(other.auth.authorization)).statusCode, 200);
      assert.equal((await list()).statusCode, 401);
      assert.equal((await list('Bearer not-a-key')).statusCode, 401);

      other.clock.now += 60_000;
      assert.equal((await list(`Bearer ${uncached.key}`)).statusCode, 200);
    } finally {
      await other.close();
    }
  });

  it('made-up well-formed keys > get no allowance of their own: they count as failures of the address', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await other.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: randomKey() } });
        statuses.push(response.statusCode);
        assert.equal(response.headers['ratelimit-limit'], undefined);
      }
      assert.deepEqual(statuses, [401, 401, 429]);
    } finally {
      await other.close();
    }
  });

  it('behind a trusted proxy > counts failures per forwarded client address', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: '1' } });
    try {
      const from = (client: string, authorization: string) =>
        other.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization, 'x-forwarded-for': client } });
      assert.equal((await from('203.0.113.7', randomKey())).statusCode, 401);
      assert.equal((await from('203.0.113.7', randomKey())).statusCode, 429);
      // Another client behind the same proxy, with a key that still needs its first lookup.
      assert.equal((await from('198.51.100.9', other.auth.authorization)).statusCode, 200);
    } finally {
      await other.close();
    }
  });

  it('health checks and the OpenAPI document > are not limited', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).statusCode, 200);
    }
  });
});

describe('rate limit set to 0', () => {
  it('any number of requests > is never limited and carries no RateLimit headers', async () => {
    const t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      for (let i = 0; i < 5; i++) {
        const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['ratelimit-limit'], undefined);
      }
    } finally {
      await t.close();
    }
  });
});
