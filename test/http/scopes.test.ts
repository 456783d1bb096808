import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { registerAccessControl } from '../../src/access/access-control.js';
import { generateApiKey } from '../../src/keys/api-key-token.js';
import { createKeyVerifier, issueApiKey, listKeys } from '../../src/keys/keys.service.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createEmptyDatabaseUrl, ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `key scopes on ${dialect}`, {}, () => {
    let t: TestApp;
    let petId: number;
    before(async () => {
      t = await createTestApp(dialect);
      const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth, payload: { name: 'Rex', categoryId: 1 } });
      assert.equal(created.statusCode, 201, 'a key made without scopes may write');
      petId = created.json().id;
    });
    after(() => t.close());

    const keyWith = async (...scopes: (typeof SCOPES)[number][]) => ({
      authorization: `Bearer ${(await issueApiKey(t.database.db, { name: `only ${scopes.join(' ')}`, scopes })).key}`,
    });

    it('a read-only key > reads pets, and gets 403 insufficient_scope with the RFC 6750 challenge on POST, storing nothing', async () => {
      const reader = await keyWith('pets:read');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: reader })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${petId}`, headers: reader })).statusCode, 200);

      const before = await t.database.db.selectFrom('pets').select('id').execute();
      const refused = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: reader, payload: { name: 'Nope', categoryId: 1 } });
      assertErrorBody(refused, {
        status: 403,
        code: 'insufficient_scope',
        message: 'this key lacks the scope pets:write that POST /v1/pets needs; its scopes: pets:read',
      });
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:write"');
      assert.deepEqual(await t.database.db.selectFrom('pets').select('id').execute(), before);
    });

    it('a write-only key > adds pets, and gets 403 naming pets:read on both reads', async () => {
      const writer = await keyWith('pets:write');
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/pets', headers: writer, payload: { name: 'Fido', categoryId: 2 } })).statusCode, 201);
      for (const url of ['/v1/pets', `/v1/pets/${petId}`]) {
        const refused = await t.app.inject({ method: 'GET', url, headers: writer });
        assert.equal(refused.statusCode, 403, url);
        assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:read"');
      }
    });

    it('a key with only the orders scopes > is refused every pets operation with 403, not 401', async () => {
      const orders = await keyWith('orders:read', 'orders:write');
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: orders })).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/pets', headers: orders, payload: { name: 'X', categoryId: 1 } })).statusCode, 403);
    });

    it('a key without the scope and an invalid body > answers 403 before 400: the body is not looked at', async () => {
      const reader = await keyWith('pets:read');
      const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...reader, 'content-type': 'application/json' }, payload: '{oops' });
      assert.equal(response.statusCode, 403);
    });
  });

  describeOnDialect(dialect, `the key scopes migration on ${dialect}`, {}, () => {
    it('a key stored before scopes existed > keeps working with every scope but keys:manage, which no migration grants', async () => {
      const place = await createEmptyDatabaseUrl(dialect);
      const handle = createDb(place.url);
      try {
        await migrateUpTo(handle.db, '2026-11-26T00-key-prefix-index');
        const { key, prefix, secretHash } = generateApiKey();
        // The row as the previous version wrote it: no scopes column yet.
        await handle.db
          .insertInto('apiKeys')
          .values({ name: 'old', prefix, secretHash, createdAt: Date.now(), expiresAt: null, revokedAt: null } as never)
          .execute();
        assert.ok((await migrateToLatest(handle.db)).includes('2026-11-26T01-key-scopes'));

        assert.deepEqual(
          (await listKeys(handle.db)).map((k) => k.scopes),
          [SCOPES.filter((scope) => scope !== 'keys:manage')],
        );
        const app = await buildApp({ db: handle.db, config: loadConfig({ LOG_LEVEL: 'silent' }) });
        try {
          const headers = { authorization: `Bearer ${key}` };
          assert.equal((await app.inject({ method: 'GET', url: '/v1/pets', headers })).statusCode, 200);
          assert.equal((await app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: 'Old', categoryId: 1 } })).statusCode, 201);
          assertErrorBody(await app.inject({ method: 'GET', url: '/v1/api-keys', headers }), { status: 403, code: 'insufficient_scope' });
        } finally {
          await app.close();
        }
      } finally {
        await handle.close();
        await place.remove();
      }
    });
  });
}

describe('a route in the authenticated scope', () => {
  const verifier = createKeyVerifier(undefined as never, { cacheTtlMs: 0 });
  const appWith = async (config: Record<string, unknown>) => {
    const app = Fastify();
    await app.register(async (v1) => {
      registerAccessControl(v1, { verifier });
      v1.get('/thing', { config }, async () => ({}));
    });
    return app;
  };

  it('that declares no scope and is not public > stops the service at start', async () => {
    await assert.rejects(
      appWith({}),
      /GET \/thing must declare config\.scope \(one of pets:read, pets:write, orders:read, orders:write, webhooks:read, webhooks:write, keys:manage\), config\.anyKey or config\.public/,
    );
  });

  it('that declares a scope no key can have > stops the service at start', async () => {
    await assert.rejects(appWith({ scope: 'pets:delete' }), /"pets:delete" is no scope/);
  });

  it('that declares a scope, any key, or is public > starts', async () => {
    for (const config of [{ scope: 'pets:read' }, { anyKey: true }, { public: true }]) {
      const app = await appWith(config);
      await app.ready();
      await app.close();
    }
  });
});
