/**
 * Hostile review, on both databases: what a key with the webhook scopes but without a
 * read scope (`orders:read`, say) learns or gains through an endpoint that receives those events.
 * Its deliveries listing leaves out the deliveries of types it may not read (their event ids,
 * times and outcomes tell of orders); and it may not rotate the signing secret of such an
 * endpoint: with the secret it could sign order events itself, as the store.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook endpoints and the read scopes on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const keys = new Map<string, { authorization: string }>();
    const keyWith = async (...scopes: Scope[]) => {
      const name = scopes.join('-');
      if (!keys.has(name)) keys.set(name, { authorization: `Bearer ${(await issueApiKey(t.database.db, { name, scopes })).key}` });
      return keys.get(name)!;
    };
    const typesListed = async (endpointId: number, auth: { authorization: string }, limit = 20) => {
      const types: string[] = [];
      let url: string | undefined = `/v1/webhook-endpoints/${endpointId}/deliveries?limit=${limit}`;
      while (url) {
        const response: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown } = await t.app.inject({
          method: 'GET',
          url,
          headers: auth,
        });
        assert.equal(response.statusCode, 200, response.body);
        types.push(...(response.json() as { eventType: string }[]).map((delivery) => delivery.eventType));
        url = /<([^>]+)>; rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
      }
      return types;
    };

    it('Attack: a webhooks:read key without orders:read > the deliveries listing leaves out the order events, test messages shown', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'https://receiver.example/' });
      for (const eventType of ['pet.created', 'order.placed', 'webhook.test', 'order.delivered', 'pet.deleted']) {
        await insertWebhookDelivery(t.database.db, { endpointId: endpoint.id, eventType });
      }
      assert.deepEqual(await typesListed(endpoint.id, t.auth), ['pet.deleted', 'order.delivered', 'webhook.test', 'order.placed', 'pet.created']);
      const petsOnly = await keyWith('webhooks:read', 'pets:read');
      assert.deepEqual(await typesListed(endpoint.id, petsOnly), ['pet.deleted', 'webhook.test', 'pet.created']);
      // Page by page too: the pages hold what the key may read, and the links reach them all.
      assert.deepEqual(await typesListed(endpoint.id, petsOnly, 1), ['pet.deleted', 'webhook.test', 'pet.created']);
      assert.deepEqual(await typesListed(endpoint.id, await keyWith('webhooks:read', 'orders:read')), ['order.delivered', 'webhook.test', 'order.placed']);
      assert.deepEqual(await typesListed(endpoint.id, await keyWith('webhooks:read')), ['webhook.test']);
    });

    it('Attack: rotate-secret by a key that may not read every type the endpoint receives > 403 insufficient_scope naming the scope, secret unchanged', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'https://receiver.example/' });
      const rotate = (id: number, auth: { authorization: string }) =>
        t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${id}/rotate-secret`, headers: auth });
      const secretOf = async (id: number) =>
        (await t.database.db.selectFrom('webhookEndpoints').select('secret').where('id', '=', id).executeTakeFirstOrThrow()).secret;

      const refused = await rotate(endpoint.id, await keyWith('webhooks:write', 'pets:read'));
      const body = assertErrorBody(refused, { status: 403, code: 'insufficient_scope' });
      assert.match(body.message, /may not have its signing secret: that needs the scope orders:read/);
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="orders:read"');
      const none = await rotate(endpoint.id, await keyWith('webhooks:write'));
      assert.equal(none.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:read orders:read"');
      assert.equal(await secretOf(endpoint.id), endpoint.secret);

      // A key that reads every type the endpoint receives rotates it.
      const petsEndpoint = await insertWebhookEndpoint(t.database.db, {
        url: 'https://receiver.example/',
        events: ['pet.*'],
        allowedTypes: ['pet.created', 'pet.updated', 'pet.deleted'],
      });
      const rotated = await rotate(petsEndpoint.id, await keyWith('webhooks:write', 'pets:read'));
      assert.equal(rotated.statusCode, 200, rotated.body);
      assert.equal(await secretOf(petsEndpoint.id), (rotated.json() as { secret: string }).secret);
      assert.equal((await rotate(endpoint.id, t.auth)).statusCode, 200);
      // Not found stays 404, whatever the key's scopes.
      assertErrorBody(await rotate(endpoint.id + 1000, await keyWith('webhooks:write')), { status: 404, code: 'webhook_endpoint_not_found' });
    });
  });
}
