/**
 * /v1/api-keys as a hostile key holder would use it: handing out scopes or a lifetime it lacks,
 * cutting off a stronger key, fishing a key back out of the idempotency record or the log, racing
 * its own retries; and a revocation reaching another instance through Redis before its cache ends.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { describeOnRedis, TEST_REDIS_URL, testNamespace } from '../helpers/redis.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `/v1/api-keys attacked on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const keyWith = async (scopes: Scope[], expiresAt?: number) => {
      const issued = await issueApiKey(t.database.db, { name: `holds ${scopes.join(' ')}`, scopes, expiresAt }, () => t.clock.now);
      return { id: issued.id, headers: bearer(issued.key) };
    };
    const create = (headers: Record<string, string>, body: unknown, idempotencyKey?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/api-keys',
        headers: { ...headers, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        payload: JSON.stringify(body),
      });
    // Without lastUsedAt, which the batched writes of the keys' use change at any time.
    const storedKeys = () =>
      t.database.db.selectFrom('apiKeys').select(['id', 'name', 'scopes', 'expiresAt', 'revokedAt', 'secretHash']).orderBy('id').execute();

    it('Attack: a key creates a key with a scope it lacks > 403 insufficient_scope naming those scopes, and no key is made', async () => {
      const manager = await keyWith(['keys:manage', 'pets:read']);
      const before = await storedKeys();
      const refused = await create(manager.headers, { name: 'escalated', scopes: ['pets:read', 'pets:write', 'webhooks:write'] });
      assertErrorBody(refused, {
        status: 403,
        code: 'insufficient_scope',
        message: 'this key may not create a key with pets:write, webhooks:write: a key hands out no scope it lacks itself; its scopes: pets:read, keys:manage',
      });
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:write webhooks:write"');
      assert.deepEqual(await storedKeys(), before);

      const allowed = await create(manager.headers, { name: 'narrower', scopes: ['pets:read'] });
      assert.equal(allowed.statusCode, 201, allowed.body);
      const copy = await create(manager.headers, { name: 'a peer', scopes: ['pets:read', 'keys:manage'] });
      assert.equal(copy.statusCode, 201, copy.body);
    });

    it('Attack: a key revokes a key holding a scope it lacks > 403, and that key keeps working; a key within its scopes it may revoke', async () => {
      const manager = await keyWith(['keys:manage', 'pets:read']);
      const stronger = await keyWith(['pets:read', 'pets:write']);
      const refused = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${stronger.id}`, headers: manager.headers });
      assertErrorBody(refused, { status: 403, code: 'insufficient_scope', message: new RegExp(`may not revoke key ${stronger.id}, which holds pets:write`) });
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:write"');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: stronger.headers })).statusCode, 200);
      const row = await t.database.db.selectFrom('apiKeys').select('revokedAt').where('id', '=', stronger.id).executeTakeFirstOrThrow();
      assert.equal(row.revokedAt, null);

      const weaker = await keyWith(['pets:read']);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${weaker.id}`, headers: manager.headers })).statusCode, 204);
    });

    it('Attack: an expiring key makes a key that outlives it > 400 on body.expiresAt; one expiring no later is made', async () => {
      const expiresAt = t.clock.now + 3_600_000;
      const shortLived = await keyWith(['keys:manage', 'pets:read'], expiresAt);
      const before = await storedKeys();
      for (const body of [
        { name: 'forever', scopes: ['pets:read'] },
        { name: 'later', scopes: ['pets:read'], expiresAt: new Date(expiresAt + 1).toISOString() },
        { name: 'absurd', scopes: ['pets:read'], expiresAt: '9999-12-31T23:59:59Z' },
      ]) {
        const error = assertErrorBody(await create(shortLived.headers, body), { status: 400, code: 'validation_failed' });
        assert.deepEqual(
          error.details?.map((detail) => detail.field),
          ['body.expiresAt'],
        );
      }
      assert.deepEqual(await storedKeys(), before);
      const made = await create(shortLived.headers, { name: 'as long', scopes: ['pets:read'], expiresAt: new Date(expiresAt).toISOString() });
      assert.equal(made.statusCode, 201, made.body);
    });

    it('Attack: a creation retried with its Idempotency-Key > 409 api_key_already_issued, no second key, and the key is in neither the idempotency record nor the log', async () => {
      const before = (await storedKeys()).length;
      const first = await create(t.auth, { name: 'retried', scopes: ['pets:read'] }, '"create-once"');
      assert.equal(first.statusCode, 201, first.body);
      const { id, key, prefix } = first.json<{ id: number; key: string; prefix: string }>();
      const secretPart = key.slice(prefix.length);

      const replay = await create(t.auth, { name: 'retried', scopes: ['pets:read'] }, '"create-once"');
      assertErrorBody(replay, { status: 409, code: 'api_key_already_issued', message: new RegExp(`made API key ${id} \\(${prefix}…\\)`) });
      assert.ok(!replay.body.includes(secretPart), replay.body);
      assert.equal((await storedKeys()).length, before + 1, 'one key made');

      const kept = (await t.database.db.selectFrom('idempotencyKeys').select('responseBody').execute()).map((row) => row.responseBody ?? '').join('\n');
      assert.ok(kept.includes(`"id":${id}`), 'the answer is kept');
      assert.ok(!kept.includes(secretPart), `the key is stored in idempotency_keys: ${kept}`);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: bearer(key) })).statusCode, 200);
      assert.ok(!JSON.stringify(t.logs).includes(secretPart), 'the key is in the log');
    });

    it('Attack: the same creation sent ten times at once with one Idempotency-Key > one key made; every other answer is a 409 without it', async () => {
      const before = (await storedKeys()).length;
      const answers = await Promise.all(Array.from({ length: 10 }, () => create(t.auth, { name: 'raced', scopes: ['pets:read'] }, '"race"')));
      const made = answers.filter((answer) => answer.statusCode === 201);
      assert.equal(made.length, 1, answers.map((answer) => answer.statusCode).join(' '));
      const key = made[0]!.json<{ key: string }>().key;
      for (const answer of answers.filter((one) => one.statusCode !== 201)) {
        assert.equal(answer.statusCode, 409, answer.body);
        assert.ok(['api_key_already_issued', 'idempotency_key_in_use'].includes(answer.json<{ code: string }>().code), answer.body);
        assert.ok(!answer.body.includes(key.slice(12)));
      }
      assert.equal((await storedKeys()).length, before + 1);
    });

    it('Attack: a key whose stored scopes this version does not know > may read itself, and nothing else', async () => {
      const { key, id } = await issueApiKey(t.database.db, { name: 'from the future', scopes: ['pets:read'] }, () => t.clock.now);
      await t.database.db.updateTable('apiKeys').set({ scopes: 'pets:admin' }).where('id', '=', id).execute();
      const current = await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: bearer(key) });
      assert.equal(current.statusCode, 200, current.body);
      assert.deepEqual(current.json<{ scopes: string[] }>().scopes, []);
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(key) }), { status: 403, code: 'insufficient_scope' });
    });
  });
}

describeOnRedis('DELETE /v1/api-keys/{id} across instances sharing Redis', {}, () => {
  const namespace = testNamespace();
  let t: TestApp;
  let other: Awaited<ReturnType<typeof buildApp>>;
  // A minute of cache: only the published revocation can make the other instance refuse the key in time.
  const env = { KEY_CACHE_TTL_MS: '60000', REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: namespace.prefix };
  before(async () => {
    t = await createTestApp('sqlite', { env });
    other = await buildApp({ db: t.database.db, config: loadConfig({ LOG_LEVEL: 'silent', ...env }) });
    await other.ready();
  });
  after(async () => {
    await other.close();
    await t.close();
    await namespace.removeKeys(TEST_REDIS_URL!);
  });

  it('a key cached by another instance > is refused there at once after the revocation, not after KEY_CACHE_TTL_MS', async () => {
    const issued = await issueApiKey(t.database.db, { name: 'cached elsewhere', scopes: ['pets:read'] });
    assert.equal((await other.inject({ method: 'GET', url: '/v1/pets', headers: bearer(issued.key) })).statusCode, 200);
    // Both instances listen before the revocation is published (a message before that is lost).
    const redis = new Redis(TEST_REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await redis.connect();
      await waitUntil(async () => ((await redis.pubsub('NUMSUB', `${namespace.prefix}key-revoked`)) as [string, number])[1] >= 2, {
        deadlineMs: 10_000,
        what: 'both instances subscribed to revocations',
      });
    } finally {
      redis.disconnect();
    }
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${issued.id}`, headers: t.auth })).statusCode, 204);
    await waitUntil(async () => (await other.inject({ method: 'GET', url: '/v1/pets', headers: bearer(issued.key) })).statusCode === 401, {
      deadlineMs: 10_000,
      everyMs: 50,
      what: 'the other instance still accepts the revoked key',
    });
  });
});
