import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { countQueries, type QueryCounts } from '../helpers/query-counter.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

/** A well-formed key that no one issued (its prefix is no key's, but for a 1 in 2^48 chance). */
const randomKey = () => `Bearer ask_${randomBytes(32).toString('base64url')}`;

describe('rate limit', () => {
  // Each test gets its own app and clock: none counts on the requests or the time another used.
  let t: TestApp;
  beforeEach(async () => {
    // A window start, so the whole test stays inside one minute of the injected clock.
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' }, now: Date.parse('2027-01-01T00:00:00Z') });
  });
  afterEach(() => t.close());

  const list = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/pets', headers });

  it('within the limit > answers normally with the RateLimit-Policy and RateLimit fields of the draft, counting down', async () => {
    const fields: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await list(t.auth);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['ratelimit-policy'], '"per-key";q=3;w=60');
      fields.push(String(response.headers['ratelimit']));
      for (const old of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) assert.equal(response.headers[old], undefined, old);
    }
    assert.deepEqual(fields, ['"per-key";r=2;t=60', '"per-key";r=1;t=60', '"per-key";r=0;t=60']);
  });

  it('over the limit > answers 429 rate_limited with Retry-After until the next window', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await list(t.auth)).statusCode, 200);
    t.clock.now += 15_000;
    const response = await list(t.auth);
    assert.equal(response.statusCode, 429);
    assertErrorBody(response, { status: 429, code: 'rate_limited', message: 'more than 3 requests in one minute with this key; retry after 45 s' });
    assert.equal(response.headers['retry-after'], '45');
    assert.equal(response.headers['ratelimit'], '"per-key";r=0;t=45');
    assert.equal(response.headers['ratelimit-policy'], '"per-key";q=3;w=60');

    t.clock.now += 45_000;
    assert.equal((await list(t.auth)).statusCode, 200);
  });

  it('another key > has its own allowance', async () => {
    const other = await issueApiKey(t.database.db, { name: 'other' });
    assert.equal((await list({ authorization: `Bearer ${other.key}` })).statusCode, 200);
  });

  it('an address whose tokens keep failing verification > has tokens of unknown prefix refused, and every valid key still works', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' }, now: Date.parse('2027-01-01T00:00:00Z') });
    try {
      const list = (authorization?: string) => other.app.inject({ method: 'GET', url: '/v1/pets', headers: authorization ? { authorization } : {} });
      assert.equal((await list(other.auth.authorization)).statusCode, 200);
      const unused = await issueApiKey(other.database.db, { name: 'not yet used' }, () => other.clock.now);

      // Sent together, they share one read of the key prefixes instead of waiting for one each.
      const statuses = await Promise.all(Array.from({ length: 4 }, () => list(randomKey())));
      assert.deepEqual(statuses.map((r) => r.statusCode).sort(), [401, 401, 401, 429]);
      const refused = statuses.find((r) => r.statusCode === 429)!;
      assertErrorBody(refused, {
        status: 429,
        code: 'rate_limited',
        message: 'more than 3 keys from this address failed verification in one minute; retry after 60 s',
      });
      assert.equal(refused.headers['retry-after'], '60');

      // Keys of known prefixes are always verified: the cached one, one never used, one made just now.
      assert.equal((await list(other.auth.authorization)).statusCode, 200);
      assert.equal((await list(`Bearer ${unused.key}`)).statusCode, 200);
      const brandNew = await issueApiKey(other.database.db, { name: 'made after the trouble' }, () => other.clock.now);
      assert.equal((await list(`Bearer ${brandNew.key}`)).statusCode, 200);
      // Tokens that are not key-shaped cost nothing and still get their 401.
      assert.equal((await list()).statusCode, 401);
      assert.equal((await list('Bearer not-a-key')).statusCode, 401);

      other.clock.now += 60_000;
      assert.equal((await list(randomKey())).statusCode, 401);
    } finally {
      await other.close();
    }
  });

  it('made-up well-formed keys > get no allowance of their own: they count as failures of the address', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const responses = await Promise.all(
        Array.from({ length: 3 }, () => other.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: randomKey() } })),
      );
      assert.deepEqual(responses.map((r) => r.statusCode).sort(), [401, 401, 429]);
      for (const response of responses) assert.equal(response.headers['ratelimit-policy'], undefined);
    } finally {
      await other.close();
    }
  });

  it('behind a trusted proxy > counts failures per forwarded client address', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: '1' } });
    try {
      const from = (client: string, authorization: string) =>
        other.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization, 'x-forwarded-for': client } });
      const [first, second] = await Promise.all([from('203.0.113.7', randomKey()), from('203.0.113.7', randomKey())]);
      assert.deepEqual([first!.statusCode, second!.statusCode].sort(), [401, 429]);
      // Another client behind the same proxy has its own count.
      assert.equal((await from('198.51.100.9', randomKey())).statusCode, 401);
    } finally {
      await other.close();
    }
  });

  it('health checks, the OpenAPI document and the docs > are not limited, even for a key and an address over their limits', async () => {
    const other = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '3' }, now: Date.parse('2027-01-01T00:00:00Z') });
    try {
      const list = (authorization: string) => other.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization } });
      // Use up the key's allowance and the address's failed verifications first.
      for (let i = 0; i < 3; i++) assert.equal((await list(other.auth.authorization)).statusCode, 200);
      assert.equal((await list(other.auth.authorization)).statusCode, 429);
      const failures = await Promise.all(Array.from({ length: 4 }, () => list(randomKey())));
      assert.ok(failures.some((r) => r.statusCode === 429));

      // More requests than the limit, with and without the exhausted key: none is counted.
      for (const url of ['/healthz', '/readyz', '/v1/openapi.json', '/docs']) {
        for (const headers of [{}, other.auth, { authorization: randomKey() }]) {
          for (let i = 0; i < 4; i++) {
            const response = await other.app.inject({ method: 'GET', url, headers });
            assert.equal(response.statusCode, 200, url);
            assert.equal(response.headers['ratelimit-policy'], undefined, url);
            assert.equal(response.headers['retry-after'], undefined, url);
          }
        }
      }
    } finally {
      await other.close();
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
        assert.equal(response.headers['ratelimit-policy'], undefined);
      }
    } finally {
      await t.close();
    }
  });
});

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `a noisy neighbour on ${dialect}`, {}, () => {
    it('1,300 random well-formed keys from one address > cost no key lookup, and working keys from it keep working', async () => {
      let counts: QueryCounts | undefined;
      // Default limits: 1200 failures per address per minute, keys cached for 5 s.
      const t = await createTestApp(dialect, {
        now: Date.parse('2027-01-01T00:00:00Z'),
        wrapDb: (db) => {
          const counted = countQueries(db);
          counts = counted.counts;
          return counted.db;
        },
      });
      try {
        const list = (authorization: string) => t.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization } });
        const unused = await issueApiKey(t.database.db, { name: 'never used yet' }, () => t.clock.now);
        assert.equal((await list(t.auth.authorization)).statusCode, 200);

        const lookupsBefore = counts!.keyLookups;
        const readsBefore = counts!.usableKeyReads;
        const statuses = (await Promise.all(Array.from({ length: 1300 }, () => list(randomKey())))).map((r) => r.statusCode);
        assert.equal(statuses.filter((s) => s === 401).length, 1200);
        assert.equal(statuses.filter((s) => s === 429).length, 100);
        assert.equal(counts!.keyLookups, lookupsBefore, 'no token of unknown prefix was looked up');
        assert.ok(counts!.usableKeyReads - readsBefore <= 20, `the prefixes were read ${counts!.usableKeyReads - readsBefore} times, not once per token`);

        // Past the key cache's 5 s, still in the same minute: the good key is looked up again, and passes.
        t.clock.now += 6000;
        const again = await list(t.auth.authorization);
        assert.equal(again.statusCode, 200);
        assert.equal(counts!.keyLookups, lookupsBefore + 1);
        // A valid key never used before, from the same address, passes at once.
        assert.equal((await list(`Bearer ${unused.key}`)).statusCode, 200);
      } finally {
        await t.close();
      }
    });
  });
}
