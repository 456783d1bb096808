/**
 * /v1/api-keys: the happy path and the refusals of each operation, on both databases. What a key
 * may not hand out (scopes, lifetime), secrets at rest and revocation across instances are in
 * keys.routes.attacks.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { type Scope, SCOPES } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { walkPages } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const KEY_FIELDS = ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes'];

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `/v1/api-keys on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const create = (body: unknown, headers: Record<string, string> = t.auth) =>
      t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const keyWith = async (scopes: Scope[], expiresAt?: number) =>
      bearer((await issueApiKey(t.database.db, { name: `only ${scopes.join(' ')}`, scopes, expiresAt }, () => t.clock.now)).key);

    it('POST /v1/api-keys > with a name and scopes > answers 201, Location and the key once; the store keeps its SHA-256, and the key works', async () => {
      const created = await create({ name: '  shop front  ', scopes: ['orders:read', 'pets:read'] });
      assert.equal(created.statusCode, 201, created.body);
      const body = created.json<Record<string, unknown> & { id: number; key: string; prefix: string }>();
      assert.deepEqual(Object.keys(body).sort(), [...KEY_FIELDS, 'key'].sort());
      assert.equal(created.headers.location, `/v1/api-keys/${body.id}`);
      assert.match(body.key, /^ask_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(
        { ...body, key: undefined, id: undefined },
        {
          key: undefined,
          id: undefined,
          name: 'shop front',
          prefix: body.key.slice(0, 12),
          scopes: ['pets:read', 'orders:read'],
          createdAt: new Date(t.clock.now).toISOString(),
          expiresAt: null,
          lastUsedAt: null,
          revokedAt: null,
        },
      );
      const row = await t.database.db.selectFrom('apiKeys').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.equal(row.secretHash, createHash('sha256').update(body.key).digest('hex'));
      assert.ok(!JSON.stringify(row).includes(body.key.slice(12)), 'no part of the key beyond its prefix is stored');

      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: bearer(body.key) })).statusCode, 200);
      const current = await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: bearer(body.key) });
      assert.equal(current.statusCode, 200, current.body);
      assert.deepEqual(current.json(), { id: body.id, name: 'shop front', prefix: body.prefix, scopes: ['pets:read', 'orders:read'], expiresAt: null });
    });

    it('POST /v1/api-keys > with expiresAt > the key works until then and gets 401 after', async () => {
      const expiresAt = new Date(t.clock.now + 3_600_000).toISOString();
      const created = await create({ name: 'for an hour', scopes: ['pets:read'], expiresAt });
      assert.equal(created.statusCode, 201, created.body);
      const { key, id } = created.json<{ key: string; id: number }>();
      assert.equal(created.json<{ expiresAt: string }>().expiresAt, expiresAt);
      const current = await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: bearer(key) });
      assert.deepEqual(current.json<{ id: number; expiresAt: string }>().expiresAt, expiresAt);
      assert.equal(current.json<{ id: number }>().id, id);
      const nowBefore = t.clock.now;
      t.clock.now = Date.parse(expiresAt);
      try {
        assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/pets', headers: bearer(key) }), { status: 401, code: 'unauthorized' });
      } finally {
        t.clock.now = nowBefore;
      }
    });

    it('GET /v1/api-keys/current > a key holding no keys:manage > answers itself', async () => {
      const reader = await keyWith(['pets:read'], t.clock.now + 60_000);
      const current = await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: reader });
      assert.equal(current.statusCode, 200, current.body);
      const body = current.json<{ name: string; scopes: string[]; expiresAt: string }>();
      assert.deepEqual([body.name, body.scopes, body.expiresAt], ['only pets:read', ['pets:read'], new Date(t.clock.now + 60_000).toISOString()]);
    });

    it('GET /v1/api-keys > pages of keys in id order with Link, each as GET /v1/api-keys/{id} answers it, never with the key', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await create({ name: `listed ${i}`, scopes: ['pets:read'] })).statusCode, 201);
      const { items, pages } = await walkPages<{ id: number; key?: string }>(t.app, t.auth, '/v1/api-keys?limit=2');
      const stored = await t.database.db.selectFrom('apiKeys').select('id').orderBy('id').execute();
      assert.deepEqual(
        items.map((key) => key.id),
        stored.map((row) => row.id),
      );
      assert.ok(pages >= 2, `${pages} pages`);
      for (const listed of items) {
        assert.deepEqual(Object.keys(listed).sort(), KEY_FIELDS);
        const one = await t.app.inject({ method: 'GET', url: `/v1/api-keys/${listed.id}`, headers: t.auth });
        assert.equal(one.statusCode, 200, one.body);
        assert.deepEqual(one.json(), listed);
      }
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/api-keys?cursor=forged', headers: t.auth }), { status: 400, code: 'invalid_cursor' });
    });

    it('DELETE /v1/api-keys/{id} > answers 204, the key gets 401 at once, and again 204 keeping the first revokedAt', async () => {
      const { key, id } = (await create({ name: 'to revoke', scopes: ['pets:read'] })).json<{ key: string; id: number }>();
      // Cached by the verifier from now on.
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: bearer(key) })).statusCode, 200);
      const revokedAt = t.clock.now;
      const revoked = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: t.auth });
      assert.equal(revoked.statusCode, 204, revoked.body);
      assert.equal(revoked.body, '');
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/pets', headers: bearer(key) }), { status: 401, code: 'unauthorized' });

      t.clock.now += 1000;
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: t.auth })).statusCode, 204);
      const after = (await t.app.inject({ method: 'GET', url: `/v1/api-keys/${id}`, headers: t.auth })).json<{ revokedAt: string }>();
      assert.equal(after.revokedAt, new Date(revokedAt).toISOString());
    });

    it('DELETE /v1/api-keys/{id} > of the key making the request > revokes it', async () => {
      const own = await keyWith(['keys:manage']);
      const { id } = (await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: own })).json<{ id: number }>();
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: own })).statusCode, 204);
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/api-keys/current', headers: own }), { status: 401, code: 'unauthorized' });
    });

    it('GET and DELETE /v1/api-keys/{id} > an id no key has > answer 404 api_key_not_found; an id beyond 2^53 or not a number > 400', async () => {
      for (const method of ['GET', 'DELETE'] as const) {
        assertErrorBody(await t.app.inject({ method, url: '/v1/api-keys/999999', headers: t.auth }), {
          status: 404,
          code: 'api_key_not_found',
          message: 'no API key has id 999999',
        });
        for (const id of ['9007199254740992', 'abc', '0'])
          assertErrorBody(await t.app.inject({ method, url: `/v1/api-keys/${id}`, headers: t.auth }), { status: 400, code: 'validation_failed' });
      }
    });

    it('POST /v1/api-keys > invalid bodies > answer 400 validation_failed naming the field, and make no key', async () => {
      const before = (await t.database.db.selectFrom('apiKeys').select('id').execute()).length;
      const cases: [unknown, string][] = [
        [{ name: 'x', scopes: [] }, 'body.scopes'],
        [{ name: 'x' }, 'body.scopes'],
        [{ name: 'x', scopes: ['pets:read', 'pets:read'] }, 'body.scopes'],
        [{ name: 'x', scopes: ['pets:admin'] }, 'body.scopes.0'],
        [{ name: 'x', scopes: Array.from({ length: 1000 }, () => 'pets:read') }, 'body.scopes'],
        [{ name: 'x', scopes: 'pets:read' }, 'body.scopes'],
        [{ name: '', scopes: ['pets:read'] }, 'body.name'],
        [{ name: '   ', scopes: ['pets:read'] }, 'body.name'],
        [{ name: 'a'.repeat(101), scopes: ['pets:read'] }, 'body.name'],
        [{ name: 'evil\u202Eeman', scopes: ['pets:read'] }, 'body.name'],
        [{ name: 7, scopes: ['pets:read'] }, 'body.name'],
        [{ name: 'x', scopes: ['pets:read'], expiresAt: null }, 'body.expiresAt'],
        [{ name: 'x', scopes: ['pets:read'], expiresAt: '2030-02-30T00:00:00Z' }, 'body.expiresAt'],
        [{ name: 'x', scopes: ['pets:read'], expiresAt: 'tomorrow' }, 'body.expiresAt'],
        [{ name: 'x', scopes: ['pets:read'], expiresAt: 1900000000000 }, 'body.expiresAt'],
        [{ name: 'x', scopes: ['pets:read'], expiresAt: new Date(t.clock.now - 1000).toISOString() }, 'body.expiresAt'],
        [{ name: 'x', scopes: ['pets:read'], key: 'ask_chosen' }, 'body.key'],
      ];
      for (const [body, field] of cases) {
        const refused = await create(body);
        const error = assertErrorBody(refused, { status: 400, code: 'validation_failed' });
        assert.ok(
          error.details?.some((detail) => detail.field.startsWith(field)),
          `${JSON.stringify(body).slice(0, 80)}: ${field} not among ${JSON.stringify(error.details)}`,
        );
      }
      assert.equal((await t.database.db.selectFrom('apiKeys').select('id').execute()).length, before);
    });

    it('every operation > a key without keys:manage > 403 insufficient_scope naming keys:manage, and nothing changes', async () => {
      const reader = await keyWith(SCOPES.filter((scope) => scope !== 'keys:manage'));
      const { id } = (await create({ name: 'target', scopes: ['pets:read'] })).json<{ id: number }>();
      const attempts = [
        { method: 'GET', url: '/v1/api-keys' },
        { method: 'GET', url: `/v1/api-keys/${id}` },
        { method: 'DELETE', url: `/v1/api-keys/${id}` },
        { method: 'POST', url: '/v1/api-keys', payload: { name: 'mine', scopes: ['pets:read'] } },
      ] as const;
      // Without lastUsedAt, which the batched writes of the keys' use change at any time.
      const keyRows = () =>
        t.database.db.selectFrom('apiKeys').select(['id', 'name', 'scopes', 'expiresAt', 'revokedAt', 'secretHash']).orderBy('id').execute();
      const before = await keyRows();
      for (const attempt of attempts) {
        const refused = await t.app.inject({ ...attempt, headers: reader });
        assertErrorBody(refused, { status: 403, code: 'insufficient_scope' });
        assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="keys:manage"');
      }
      assert.deepEqual(await keyRows(), before);
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/api-keys/current' }), { status: 401, code: 'unauthorized' });
    });
  });
}
