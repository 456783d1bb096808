/**
 * /v1/api-keys as the console's hostile review attacked it: an expiry the store can keep but not
 * answer (a year past 9999 once in UTC), and a database that goes silent in the middle of a
 * creation (the key must never be shown unless it was stored; 503 in the Error shape).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { startDatabaseProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect, describeOnPostgres } from '../helpers/test-db.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `/v1/api-keys, the console's hostile review, on ${dialect}`, {}, () => {
    let t: TestApp;
    let headers: Record<string, string>;
    before(async () => {
      t = await createTestApp(dialect);
      const issued = await issueApiKey(t.database.db, { name: 'manager', scopes: [...SCOPES] }, () => t.clock.now);
      headers = { ...bearer(issued.key), 'content-type': 'application/json' };
    });
    after(() => t.close());

    const create = (expiresAt: string) =>
      t.app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: JSON.stringify({ name: 'far future', scopes: ['pets:read'], expiresAt }) });
    const storedCount = async () => (await t.database.db.selectFrom('apiKeys').select('id').execute()).length;

    it('Attack: expiresAt in year 9999 with a negative offset (year 10000 in UTC) > 400 on body.expiresAt, no key made, and the listing still answers', async () => {
      const before = await storedCount();
      for (const expiresAt of ['9999-12-31T23:59:59-01:00', '9999-12-31T23:30:00.000-00:30']) {
        const refused = await create(expiresAt);
        assertErrorBody(refused, { status: 400, code: 'validation_failed', message: /body\.expiresAt must be no later than 9999-12-31T23:59:59\.999Z/ });
        assert.equal(refused.json().details[0].field, 'body.expiresAt');
      }
      assert.equal(await storedCount(), before, 'a refused creation stores no key');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers })).statusCode, 200);
    });

    it('expiresAt at the last millisecond of 9999 in UTC, or given with a +14:00 offset > 201, answered in UTC, and the key reads back and lists', async () => {
      const last = await create('9999-12-31T23:59:59.999Z');
      assert.equal(last.statusCode, 201, last.body);
      assert.equal(last.json().expiresAt, '9999-12-31T23:59:59.999Z');
      const offset = await create('2030-01-01T00:00:00+14:00');
      assert.equal(offset.statusCode, 201, offset.body);
      assert.equal(offset.json().expiresAt, '2029-12-31T10:00:00.000Z');
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/api-keys/${last.json().id}`, headers })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/api-keys?limit=100', headers })).statusCode, 200);
    });

    it('Attack: expiresAt as a leap second or a 24:00 > 400 on body.expiresAt, no key made', async () => {
      const before = await storedCount();
      for (const expiresAt of ['2030-12-31T23:59:60Z', '2030-01-01T24:00:00Z']) {
        const refused = await create(expiresAt);
        assertErrorBody(refused, { status: 400, code: 'validation_failed', message: /body\.expiresAt/ });
      }
      assert.equal(await storedCount(), before);
    });
  });
}

describeOnPostgres('/v1/api-keys when the database goes silent mid-create', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let proxy: TcpProxy & { url: string };
  let handle: DbHandle;
  let app: FastifyInstance;
  let headers: Record<string, string>;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    // The store is made and the manager's key issued past the proxy: a connection that had prepared
    // the key's insert would send only its name, and the partition would never meet its text.
    const direct = createDb(place.url);
    try {
      await migrateToLatest(direct.db);
      headers = { ...bearer((await issueApiKey(direct.db, { name: 'manager', scopes: [...SCOPES] })).key), 'content-type': 'application/json' };
    } finally {
      await direct.close();
    }
    proxy = await startDatabaseProxy(place.url);
    handle = createDb(proxy.url, { poolMax: 4, statementTimeoutMs: 1000 });
    app = await buildApp({ db: handle.db, config: loadConfig({ LOG_LEVEL: 'silent' }) });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await handle?.close();
    await proxy?.close();
    await place?.remove();
  });

  it(
    'Attack: the network goes silent once the key is sent to be stored > 503 service_unavailable in the Error shape, and no key in the answer',
    { timeout: 30_000 },
    async () => {
      // Warm the key cache so the partition meets the creation, not the authentication.
      assert.equal((await app.inject({ method: 'GET', url: '/v1/api-keys/current', headers })).statusCode, 200);
      const partitioned = proxy.partitionAfter(/insert into "api_keys"/i);
      const answer = app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: JSON.stringify({ name: 'mid-stall', scopes: ['pets:read'] }) });
      await partitioned;
      const response = await answer;
      assertErrorBody(response, { status: 503, code: 'service_unavailable', message: /./ });
      assert.doesNotMatch(response.body, /ask_[A-Za-z0-9_-]{43}/, 'a key the service could not confirm stored is never shown');
    },
  );
});
