/**
 * The deliveries' routes on both databases: an endpoint's deliveries with their attempts, newest
 * first, paged and filtered by outcome; a retry by hand sends the same message again now; a test
 * message reaches the receiver, signed; 404s; the webhook scopes.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { TEST_MESSAGE } from '../../src/webhooks/webhook-deliveries.service.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { walkPages } from '../helpers/pages.js';
import type { TestApp } from '../helpers/test-app.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';
import { describeWebhookSuite } from '../helpers/webhook-suite.js';

const WAIT_MS = 10_000;

interface Delivery {
  id: number;
  endpointId: number;
  messageId: string;
  eventId: number | null;
  eventType: string;
  state: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: { outcome: string; statusCode: number | null; error: string | null; durationMs: number; attemptedAt: string }[];
}

describeWebhookSuite(
  (dialect) => `webhook deliveries routes on ${dialect}`,
  { env: { WEBHOOK_RETRY_SCHEDULE: '0,0' } },
  (suite) => {
    const { receiver, createPet } = suite;
    let t: TestApp;
    before(() => {
      t = suite.t;
    });
    const list = async (endpointId: number, query = '') => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpointId}/deliveries${query}`, headers: t.auth });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as Delivery[];
    };
    const settled = (endpointId: number, count: number) =>
      waitUntil(async () => (await list(endpointId)).filter((d) => d.state !== 'pending').length >= count, {
        deadlineMs: WAIT_MS,
        what: `${count} deliveries to settle`,
      });

    it('GET deliveries > newest first with their attempts, filtered by outcome, paged with Link', async () => {
      // The first message fails both attempts, the others succeed.
      const hooks = await receiver(({ body }) => ({ status: body.includes('"name":"First"') ? 500 : 204 }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('First');
      await settled(endpoint.id, 1);
      await createPet('Second');
      await createPet('Third');
      await settled(endpoint.id, 3);
      const all = await list(endpoint.id);
      assert.deepEqual(
        all.map((d) => d.state),
        ['succeeded', 'succeeded', 'failed'],
      );
      assert.ok(all[0]!.id > all[1]!.id && all[1]!.id > all[2]!.id, 'newest first');
      const failed = all[2]!;
      assert.equal(failed.attemptCount, 2);
      assert.equal(failed.nextAttemptAt, null);
      assert.deepEqual(
        failed.attempts.map((a) => [a.outcome, a.statusCode, a.error]),
        [
          ['failed', 500, 'answered 500'],
          ['failed', 500, 'answered 500'],
        ],
      );
      assert.equal(failed.eventType, 'pet.created');
      assert.equal(failed.messageId, `evt_${failed.eventId}`);
      assert.deepEqual(
        (await list(endpoint.id, '?outcome=failed')).map((d) => d.id),
        [failed.id],
      );
      assert.deepEqual(
        (await list(endpoint.id, '?outcome=succeeded')).map((d) => d.id),
        [all[0]!.id, all[1]!.id],
      );
      assert.deepEqual(await list(endpoint.id, '?outcome=pending'), []);
      const walked = await walkPages<Delivery>(t.app, t.auth, `/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1`);
      assert.deepEqual(
        walked.items.map((d) => d.id),
        all.map((d) => d.id),
      );
      assert.equal(walked.pages, 3);
      const bad = await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}/deliveries?outcome=lost`, headers: t.auth });
      assertErrorBody(bad, { status: 400, code: 'validation_failed' });
    });

    it('POST retry > a failed delivery is sent again now under the same webhook-id, and succeeds', async () => {
      let up = false;
      const hooks = await receiver(() => ({ status: up ? 200 : 500 }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('Retried');
      await settled(endpoint.id, 1);
      const [failed] = await list(endpoint.id);
      assert.equal(failed!.state, 'failed');
      up = true;
      const response = await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed!.id}/retry`, headers: t.auth });
      assert.equal(response.statusCode, 202, response.body);
      const answered = response.json() as Delivery;
      assert.equal(answered.state, 'pending');
      assert.equal(answered.nextAttemptAt, new Date(t.clock.now).toISOString());
      const arrived = await withDeadline(hooks.waitFor(3), WAIT_MS, 'the retried message to arrive');
      assert.equal(arrived[2]!.headers['webhook-id'], failed!.messageId);
      await waitUntil(async () => (await list(endpoint.id))[0]!.state === 'succeeded', { deadlineMs: WAIT_MS, what: 'the retry to succeed' });
      assert.equal((await list(endpoint.id))[0]!.attemptCount, 3);
    });

    it('POST test > a signed webhook.test message with its own webhook-id reaches the receiver', async () => {
      const hooks = await receiver();
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/webhook-endpoints/${endpoint.id}/test`,
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: {},
      });
      assert.equal(response.statusCode, 202, response.body);
      const delivery = response.json() as Delivery;
      assert.deepEqual([delivery.eventType, delivery.eventId, delivery.state, delivery.attemptCount], ['webhook.test', null, 'pending', 0]);
      assert.match(delivery.messageId, /^msg_test_[A-Za-z0-9_-]{16}$/);
      const [message] = await withDeadline(hooks.waitFor(1), WAIT_MS, 'the test message to arrive');
      assert.equal(message!.headers['webhook-id'], delivery.messageId);
      const body = new Webhook(endpoint.secret).verify(message!.body, message!.headers as Record<string, string>) as Record<string, unknown>;
      assert.deepEqual(body, {
        type: 'webhook.test',
        occurredAt: new Date(t.clock.now).toISOString(),
        data: { endpointId: endpoint.id, message: TEST_MESSAGE },
      });
      const again = await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/test`, headers: t.auth });
      assert.notEqual((again.json() as Delivery).messageId, delivery.messageId, 'each test has its own webhook-id');
    });

    it('GET deliveries > shows the last 10 attempts of each, newest first, and counts them all', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never', status: 'disabled' });
      const test = await insertWebhookDelivery(t.database.db, { endpointId: endpoint.id });
      const other = await insertWebhookDelivery(t.database.db, { endpointId: endpoint.id });
      for (let i = 1; i <= 12; i++) {
        await t.database.db
          .insertInto('webhookAttempts')
          .values({ deliveryId: test.id, attemptedAt: i * 1000, durationMs: i, statusCode: 500 + i, error: `answered ${500 + i}`, outcome: 'failed' })
          .execute();
      }
      await t.database.db
        .insertInto('webhookAttempts')
        .values({ deliveryId: other.id, attemptedAt: 1000, durationMs: 1, statusCode: 204, error: null, outcome: 'succeeded' })
        .execute();
      await t.database.db.updateTable('webhookDeliveries').set({ attempts: 12 }).where('id', '=', test.id).execute();
      const [newest, shown] = await list(endpoint.id);
      assert.equal(newest!.id, other.id);
      assert.deepEqual(
        newest!.attempts.map((a) => a.statusCode),
        [204],
      );
      assert.equal(shown!.attemptCount, 12);
      assert.deepEqual(
        shown!.attempts.map((a) => a.durationMs),
        [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
      );
      assert.equal(shown!.attempts[0]!.attemptedAt, new Date(12_000).toISOString());
    });

    it('unknown endpoint or delivery > 404 with its code; a body other than {} > 400', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never', status: 'disabled' });
      const other = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/other', status: 'disabled' });
      const test = await insertWebhookDelivery(t.database.db, { endpointId: other.id });
      const missing = endpoint.id + other.id + 100;
      assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${missing}/deliveries`, headers: t.auth }), {
        status: 404,
        code: 'webhook_endpoint_not_found',
        message: `no webhook endpoint has id ${missing}`,
      });
      assertErrorBody(await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${missing}/test`, headers: t.auth }), {
        status: 404,
        code: 'webhook_endpoint_not_found',
      });
      assertErrorBody(await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${missing}/deliveries/${test.id}/retry`, headers: t.auth }), {
        status: 404,
        code: 'webhook_endpoint_not_found',
      });
      // Another endpoint's delivery is not this one's.
      assertErrorBody(await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/deliveries/${test.id}/retry`, headers: t.auth }), {
        status: 404,
        code: 'webhook_delivery_not_found',
        message: `webhook endpoint ${endpoint.id} has no delivery ${test.id}`,
      });
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: `/v1/webhook-endpoints/${other.id}/test`,
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { url: 'x' },
        }),
        {
          status: 400,
          code: 'validation_failed',
        },
      );
    });

    it('scopes > webhooks:read lists, webhooks:write retries and tests; other keys get 403', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: (await receiver()).url });
      const key = async (scopes: ('webhooks:read' | 'webhooks:write' | 'pets:read')[]) => ({
        authorization: `Bearer ${(await issueApiKey(t.database.db, { name: scopes.join('-'), scopes })).key}`,
      });
      const reader = await key(['webhooks:read']);
      const pets = await key(['pets:read']);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}/deliveries`, headers: reader })).statusCode, 200);
      assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}/deliveries`, headers: pets }), {
        status: 403,
        code: 'insufficient_scope',
      });
      assertErrorBody(await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/test`, headers: reader }), {
        status: 403,
        code: 'insufficient_scope',
      });
      assert.equal(
        (await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/test`, headers: await key(['webhooks:write']) })).statusCode,
        202,
      );
    });
  },
);
