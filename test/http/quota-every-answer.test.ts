/**
 * Every request that presents a valid key to an operation counts against the key's quota and
 * carries RateLimit and RateLimit-Policy, whatever its answer; and a spent quota answers 429
 * before any other refusal of a valid key (403 insufficient_scope among them). Run with the
 * in-memory counts and with counts shared through Redis (TEST_REDIS_URL), which decide in the
 * same hook but over other counters.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { describeOnRedis, TEST_REDIS_URL, testNamespace } from '../helpers/redis.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A window start, so every test stays inside one minute of the injected clock. */
const WINDOW_START = Date.parse('2027-01-01T00:00:00Z');
const LIMIT = 50;
const POLICY = `"per-key";q=${LIMIT};w=60`;

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  json(): unknown;
}

type Limiter = 'memory' | 'redis';

function suite(limiter: Limiter): void {
  let namespace: ReturnType<typeof testNamespace> | undefined;
  const envFor = (): Record<string, string> => {
    const env: Record<string, string> = { RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    if (limiter === 'redis') {
      namespace ??= testNamespace();
      Object.assign(env, { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: namespace.prefix, RATE_LIMIT_SYNC_MS: '10000' });
    }
    return env;
  };

  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: envFor(), now: WINDOW_START });
  });
  after(async () => {
    await t.close();
    if (namespace && TEST_REDIS_URL) await namespace.removeKeys(TEST_REDIS_URL);
  });

  const keyWith = async (app: TestApp, ...scopes: Scope[]) => ({
    authorization: `Bearer ${(await issueApiKey(app.database.db, { name: `only ${scopes.join(' ') || 'all'}`, ...(scopes.length ? { scopes } : {}) }, () => app.clock.now)).key}`,
  });
  /** What is left of the key's quota, read from a plain read's RateLimit field. */
  const remainingAfter = (answer: Answer) => Number(/;r=(\d+);/.exec(String(answer.headers['ratelimit']))?.[1]);

  /** The first answer to a fresh key carries both fields and cost one request, as the next request shows. */
  const assertCounted = async (answer: Answer, next: () => Promise<Answer>) => {
    assert.equal(answer.headers['ratelimit-policy'], POLICY, `${answer.statusCode} carries RateLimit-Policy`);
    assert.equal(answer.headers['ratelimit'], `"per-key";r=${LIMIT - 1};t=60`, `${answer.statusCode} carries RateLimit and counted`);
    const following = await next();
    assert.equal(remainingAfter(following), LIMIT - 2, 'the next request sees the first one counted');
  };

  it(`${limiter} quota > 403 insufficient_scope > carries RateLimit and RateLimit-Policy and counts against the key`, async () => {
    const reader = await keyWith(t, 'pets:read');
    const refused = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: reader, payload: { name: 'Nope', categoryId: 1 } });
    assertErrorBody(refused, { status: 403, code: 'insufficient_scope', message: /lacks the scope pets:write/ });
    await assertCounted(refused, () => t.app.inject({ method: 'GET', url: '/v1/pets', headers: reader }));
  });

  it(`${limiter} quota > 29 refused writes of a read-only key > use 29 of its requests`, async () => {
    const reader = await keyWith(t, 'pets:read');
    for (let i = 0; i < 29; i++) {
      const refused = await t.app.inject({ method: 'DELETE', url: '/v1/pets/1', headers: reader });
      assert.equal(refused.statusCode, 403);
    }
    const read = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: reader });
    assert.equal(read.headers['ratelimit'], `"per-key";r=${LIMIT - 30};t=60`);
  });

  it(`${limiter} quota > 400 validation_failed > carries both fields and counts`, async () => {
    const key = await keyWith(t);
    const refused = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: key, payload: { name: 'X', categoryId: 'one' } });
    assertErrorBody(refused, { status: 400, code: 'validation_failed', message: /categoryId/ });
    await assertCounted(refused, () => t.app.inject({ method: 'GET', url: '/v1/pets', headers: key }));
  });

  it(`${limiter} quota > 400 for a query that is not UTF-8 > carries both fields and counts`, async () => {
    const key = await keyWith(t);
    const refused = await t.app.inject({ method: 'GET', url: '/v1/pets?name=%FF', headers: key });
    assertErrorBody(refused, { status: 400, code: 'validation_failed', message: /query.name/ });
    await assertCounted(refused, () => t.app.inject({ method: 'GET', url: '/v1/pets', headers: key }));
  });

  it(`${limiter} quota > 404 of a missing pet > carries both fields and counts`, async () => {
    const key = await keyWith(t);
    const missing = await t.app.inject({ method: 'GET', url: '/v1/pets/987654', headers: key });
    assertErrorBody(missing, { status: 404, code: 'pet_not_found', message: /987654/ });
    await assertCounted(missing, () => t.app.inject({ method: 'GET', url: '/v1/pets', headers: key }));
  });

  it(`${limiter} quota > 412 of a stale If-Match > carries both fields and counts`, async () => {
    const key = await keyWith(t);
    const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth, payload: { name: 'Stale', categoryId: 1 } });
    const id = (created.json() as { id: number }).id;
    const refused = await t.app.inject({ method: 'PATCH', url: `/v1/pets/${id}`, headers: { ...key, 'if-match': `"${id}-99"` }, payload: { status: 'sold' } });
    assertErrorBody(refused, { status: 412, code: 'precondition_failed', message: /changed/ });
    await assertCounted(refused, () => t.app.inject({ method: 'GET', url: '/v1/pets', headers: key }));
  });

  it(`${limiter} quota > spent, then a write with a read-only key > answers 429 before 403`, async () => {
    const reader = await keyWith(t, 'pets:read');
    for (let i = 0; i < LIMIT; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: reader })).statusCode, 200);
    const refused = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: reader, payload: { name: 'Nope', categoryId: 1 } });
    assertErrorBody(refused, { status: 429, code: 'rate_limited', message: /more than 50 requests in one minute with this key/ });
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(refused.headers['ratelimit'], '"per-key";r=0;t=60');
    assert.equal(refused.headers['ratelimit-policy'], POLICY);
    assert.equal(refused.headers['www-authenticate'], undefined, 'no scope challenge: the quota answered first');
  });

  it(`${limiter} quota > a 5xx (the database fails) > carries both fields and counts`, async () => {
    // An app of its own: its pets table is taken away, so the read fails inside the handler.
    const own = await createTestApp('sqlite', { env: envFor(), now: WINDOW_START });
    try {
      const key = await keyWith(own);
      // The key is verified (and cached) while the database still works.
      const first = await own.app.inject({ method: 'GET', url: '/v1/pets/1', headers: key });
      assert.equal(first.statusCode, 404);
      await sql`drop table pets`.execute(own.database.db);
      const failed = await own.app.inject({ method: 'GET', url: '/v1/pets/2', headers: key });
      assert.ok(failed.statusCode >= 500, `${failed.statusCode} ${failed.body}`);
      assert.deepEqual(Object.keys(failed.json() as object).sort(), ['code', 'message', 'status']);
      assert.equal(failed.headers['ratelimit-policy'], POLICY);
      assert.equal(failed.headers['ratelimit'], `"per-key";r=${LIMIT - 2};t=60`);
      const next = await own.app.inject({ method: 'GET', url: '/v1/pets/3', headers: key });
      assert.equal(next.headers['ratelimit'], `"per-key";r=${LIMIT - 3};t=60`);
    } finally {
      await own.close();
    }
  });
}

describe('the quota counts every answer of a valid key (in-memory counts)', () => suite('memory'));
describeOnRedis('the quota counts every answer of a valid key (counts shared through Redis)', {}, () => suite('redis'));
