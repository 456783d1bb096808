/**
 * Hostile review, what a change of an endpoint does to its deliveries, on both
 * databases: a key that may not read orders cannot point an endpoint at its own receiver and get
 * the order events already queued, nor send one again by hand (nor learn that it exists: 404 as a
 * missing one); disabling leaves nothing due, and
 * enabling revives nothing.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, it } from 'node:test';
import { sql } from 'kysely';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { insertWebhookDelivery, insertWebhookEndpoint, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-endpoint-row.js';

const WAIT_MS = 10_000;
const HOUR_MS = 3_600_000;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook endpoint changes and their deliveries on ${dialect}`, {}, () => {
    let t: TestApp;
    // A new key works once the usable keys are read again (about a second): made once for the suite.
    let petsOnly: { authorization: string };
    let writeOnly: { authorization: string };
    const receivers: WebhookReceiver[] = [];
    before(async () => {
      t = await createTestApp(dialect, {
        env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '0,0' },
        hooks: { webhookDispatcher: { pollMs: 20 } },
      });
      petsOnly = await keyWith('pets:read', 'webhooks:read', 'webhooks:write');
      writeOnly = await keyWith('webhooks:write');
    });
    afterEach(async () => {
      await t.database.db.deleteFrom('webhookEndpoints').execute();
      for (const receiver of receivers.splice(0)) await receiver.close();
    });
    after(() => t.close());

    const receiver = async () => {
      const started = await startWebhookReceiver();
      receivers.push(started);
      return started;
    };
    const keyWith = async (...scopes: Scope[]) => ({ authorization: `Bearer ${(await issueApiKey(t.database.db, { name: scopes.join('-'), scopes })).key}` });
    const patch = (id: number, body: object, auth = t.auth) =>
      t.app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${id}`, headers: { ...auth, 'content-type': 'application/json' }, payload: body });
    const retry = (endpointId: number, deliveryId: number, auth = t.auth) =>
      t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/retry`, headers: auth });
    const states = async (endpointId: number) =>
      Object.fromEntries(
        (
          await t.database.db.selectFrom('webhookDeliveries').select(['eventType', 'state', 'nextAttemptAt']).where('endpointId', '=', endpointId).execute()
        ).map((row) => [row.eventType, [row.state, row.nextAttemptAt]]),
      );
    /** Deliveries queued for the endpoint, due in an hour of the app's clock (which stands still until the test moves it). */
    const queue = async (endpointId: number, ...eventTypes: string[]) => {
      const rows = [];
      for (const eventType of eventTypes)
        rows.push(await insertWebhookDelivery(t.database.db, { endpointId, eventType, state: 'pending', nextAttemptAt: t.clock.now + HOUR_MS }));
      return rows;
    };

    it('Attack: a key without orders:read points an endpoint receiving orders at its own receiver: the queued order deliveries fail, only pet events and tests reach it', async () => {
      const mine = await receiver();
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/the-full-keys-receiver', events: ['pet.*', 'order.*'] });
      await queue(endpoint.id, 'order.placed', 'pet.created', 'webhook.test');

      const changed = await patch(endpoint.id, { url: mine.url }, petsOnly);
      assert.equal(changed.statusCode, 200, changed.body);
      // The patching key answers for what the endpoint receives now: what it may read of its events.
      assert.deepEqual(changed.json<{ allowedTypes: string[] }>().allowedTypes, ['pet.created', 'pet.updated', 'pet.deleted']);
      const due = t.clock.now + HOUR_MS;
      assert.deepEqual(await states(endpoint.id), { 'order.placed': ['failed', null], 'pet.created': ['pending', due], 'webhook.test': ['pending', due] });

      t.clock.now += HOUR_MS;
      const arrived = await withDeadline(mine.waitFor(2), WAIT_MS, 'the pet event and the test message');
      const settled = async () => Object.values(await states(endpoint.id)).map(([state]) => state);
      await waitUntil(async () => (await settled()).filter((state) => state === 'succeeded').length === 2, {
        deadlineMs: WAIT_MS,
        what: 'both to be recorded',
      });
      assert.deepEqual(arrived.map((message) => JSON.parse(message.body).type).sort(), ['pet.created', 'webhook.test']);
      assert.equal(mine.received.length, 2, 'no order event reached the new receiver');
    });

    it('Attack: a PATCH of events that drops order types fails their queued deliveries; a description or status change keeps allowedTypes', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never', events: ['pet.*', 'order.*'] });
      await queue(endpoint.id, 'order.delivered', 'pet.deleted');
      assert.equal((await patch(endpoint.id, { description: 'words only' }, writeOnly)).statusCode, 200);
      assert.equal((await states(endpoint.id))['order.delivered']![0], 'pending', 'a description changes nothing queued');
      const narrowed = await patch(endpoint.id, { events: ['pet.deleted'] });
      assert.deepEqual(narrowed.json<{ allowedTypes: string[] }>().allowedTypes, ['pet.deleted']);
      assert.deepEqual(Object.fromEntries(Object.entries(await states(endpoint.id)).map(([type, [state]]) => [type, state])), {
        'order.delivered': 'failed',
        'pet.deleted': 'pending',
      });
    });

    it('Attack: a retry by hand needs the scope that reads the delivery type, and the endpoint must still receive it; webhook.test needs neither', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: (await receiver()).url, events: ['pet.*', 'order.*'] });
      const [order, pet, test] = await Promise.all(
        ['order.placed', 'pet.updated', 'webhook.test'].map((eventType) => insertWebhookDelivery(t.database.db, { endpointId: endpoint.id, eventType })),
      );

      assert.equal((await retry(endpoint.id, pet!.id, petsOnly)).statusCode, 202);
      assert.equal((await retry(endpoint.id, test!.id, writeOnly)).statusCode, 202);

      // Narrowed by a key reading pets only: the order delivery stays failed, whoever asks.
      await t.database.db.updateTable('webhookDeliveries').set({ state: 'failed', nextAttemptAt: null }).where('id', '=', order!.id).execute();
      assert.equal((await patch(endpoint.id, { events: ['pet.*', 'order.*'] }, petsOnly)).statusCode, 200);
      const narrowed = await retry(endpoint.id, order!.id);
      assertErrorBody(narrowed, {
        status: 403,
        code: 'insufficient_scope',
        message: `webhook endpoint ${endpoint.id} no longer receives order.placed events (its allowedTypes were narrowed when its url or events were last set): a key with orders:read must set its url or events again first`,
      });
      assert.match(String(narrowed.headers['www-authenticate']), /scope="orders:read"/);
      assert.equal((await states(endpoint.id))['order.placed']![0], 'failed');
    });

    it('Attack: a retry by hand of a delivery of a type the key may not read > 404 webhook_delivery_not_found, as a missing one (the listing hides it)', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never', events: ['pet.*', 'order.*'] });
      const order = await insertWebhookDelivery(t.database.db, { endpointId: endpoint.id, eventType: 'order.placed' });
      const hidden = await retry(endpoint.id, order.id, petsOnly);
      const missing = await retry(endpoint.id, order.id + 1000, petsOnly);
      assertErrorBody(hidden, { status: 404, code: 'webhook_delivery_not_found', message: `webhook endpoint ${endpoint.id} has no delivery ${order.id}` });
      assertErrorBody(missing, {
        status: 404,
        code: 'webhook_delivery_not_found',
        message: `webhook endpoint ${endpoint.id} has no delivery ${order.id + 1000}`,
      });
      assert.equal(hidden.headers['www-authenticate'], undefined, 'no challenge names the scope that would read it');
      assert.equal((await states(endpoint.id))['order.placed']![0], 'failed', 'nothing was revived');
    });

    it('Attack: PATCH status disabled leaves nothing due (queued deliveries fail), and enabling again revives none of them', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never' });
      await queue(endpoint.id, 'pet.created', 'webhook.test');
      const disabled = await patch(endpoint.id, { status: 'disabled' });
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.deepEqual(await states(endpoint.id), { 'pet.created': ['failed', null], 'webhook.test': ['failed', null] });
      const due = await t.database.db.selectFrom('webhookDeliveries').select('id').where('state', '=', 'pending').execute();
      assert.deepEqual(due, []);
      assert.equal((await patch(endpoint.id, { status: 'enabled' })).statusCode, 200);
      assert.deepEqual(await states(endpoint.id), { 'pet.created': ['failed', null], 'webhook.test': ['failed', null] });
    });

    // PostgreSQL only: sQLite's write transactions run one at a time: no batch runs beside the PATCH.
    if (dialect === 'postgres') {
      it('Attack: a fan-out batch that read the endpoint before a narrowing PATCH cannot queue an order delivery after it', async () => {
        const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never', events: ['pet.*', 'order.*'] });
        let insert!: () => void;
        const inserting = new Promise<void>((resolve) => (insert = resolve));
        let locked!: (pid: number) => void;
        const holder = new Promise<number>((resolve) => (locked = resolve));
        // A batch as the fan-out runs it: the position locked, the endpoints read, their deliveries inserted, then commit.
        const batch = t.database.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await trx.selectFrom('webhookDispatch').selectAll().forUpdate().execute();
          locked(rows[0]!.pid);
          await inserting;
          await insertWebhookDelivery(trx, { endpointId: endpoint.id, eventType: 'order.cancelled', state: 'pending', nextAttemptAt: t.clock.now + HOUR_MS });
        });
        const pid = await holder;
        let answered = false;
        const narrowing = patch(endpoint.id, { url: 'http://127.0.0.1:9/elsewhere' }, petsOnly).then((response) => ((answered = true), response));
        const blocked = async () =>
          (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(t.database.db)).rows[0]!
            .n > 0;
        await waitUntil(async () => answered || (await blocked()), { deadlineMs: WAIT_MS, what: 'the PATCH to answer or wait for the batch' });
        insert();
        await batch;
        assert.equal((await narrowing).statusCode, 200);
        assert.deepEqual((await states(endpoint.id))['order.cancelled'], ['failed', null]);
      });
    }
  });
}
