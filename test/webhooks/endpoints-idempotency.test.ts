/**
 * Retries of the two answers that carry a signing secret (create, rotate-secret) under the same
 * Idempotency-Key: the secret is not kept at rest in the idempotency record (only its SHA-256), a
 * replay answers the first answer exactly while that secret is still the endpoint's, and refuses
 * once it has been replaced (a rotation) or the endpoint removed, rather than hand out a
 * superseded secret.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { STUB_DNS, stubLookup } from '../helpers/stub-lookup.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `/v1/webhook-endpoints retried with Idempotency-Key on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { hooks: { webhookLookup: stubLookup(STUB_DNS) } });
    });
    after(() => t.close());

    let keys = 0;
    const newKey = () => `"endpoint-${++keys}"`;
    const NEW_ENDPOINT = { url: 'https://receiver.example/hooks', events: ['pet.*'] };
    const send = (method: 'POST' | 'DELETE', url: string, key: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { ...t.auth, 'idempotency-key': key, ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { payload } : {}),
      });
    const keptBodies = async () =>
      (await t.database.db.selectFrom('idempotencyKeys').select('responseBody').execute()).map((row) => row.responseBody ?? '').join('\n');

    it('Attack: create and rotate under a key > keep no secret in the idempotency record; a replay answers the first answer, secret included', async () => {
      const createKey = newKey();
      const created = await send('POST', '/v1/webhook-endpoints', createKey, NEW_ENDPOINT);
      assert.equal(created.statusCode, 201, created.body);
      const { id, secret } = created.json<{ id: number; secret: string }>();
      const rotateKey = newKey();
      const rotated = await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, rotateKey);
      assert.equal(rotated.statusCode, 200, rotated.body);
      const newSecret = rotated.json<{ secret: string }>().secret;

      const kept = await keptBodies();
      for (const shown of [secret, newSecret]) assert.ok(!kept.includes(shown.slice('whsec_'.length)), `a secret is stored in idempotency_keys: ${kept}`);

      const again = await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, rotateKey);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, rotated.body, 'the first answer, byte for byte');
    });

    it('Attack: a replay of a create after a rotation > refuses with 409 webhook_secret_superseded, never answers the replaced secret', async () => {
      const createKey = newKey();
      const created = await send('POST', '/v1/webhook-endpoints', createKey, NEW_ENDPOINT);
      const { id, secret } = created.json<{ id: number; secret: string }>();
      assert.equal((await send('POST', '/v1/webhook-endpoints', createKey, NEW_ENDPOINT)).body, created.body, 'before the rotation, the first answer');

      assert.equal((await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, newKey())).statusCode, 200);
      const replay = await send('POST', '/v1/webhook-endpoints', createKey, NEW_ENDPOINT);
      assertErrorBody(replay, { status: 409, code: 'webhook_secret_superseded' });
      assert.ok(!replay.body.includes(secret.slice('whsec_'.length)), replay.body);
      assert.equal((await t.database.db.selectFrom('webhookEndpoints').select('id').execute()).length, 2, 'nothing was created again');
    });

    it('Attack: a replay of a rotation after a second rotation, or after the endpoint was removed > refuses', async () => {
      const { id } = (await send('POST', '/v1/webhook-endpoints', newKey(), NEW_ENDPOINT)).json<{ id: number }>();
      const firstKey = newKey();
      assert.equal((await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, firstKey)).statusCode, 200);
      assert.equal((await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, newKey())).statusCode, 200);
      assertErrorBody(await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, firstKey), { status: 409, code: 'webhook_secret_superseded' });

      assert.equal((await send('DELETE', `/v1/webhook-endpoints/${id}`, newKey())).statusCode, 204);
      assertErrorBody(await send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, firstKey), { status: 409, code: 'webhook_secret_superseded' });
    });
  });
}
