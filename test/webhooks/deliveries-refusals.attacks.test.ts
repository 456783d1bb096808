/**
 * Hostile review, what a test message or a retry by hand must refuse, on both
 * databases: a disabled endpoint (nothing would send it: 409 webhook_endpoint_disabled), a delivery
 * whose attempt is in flight (409 webhook_delivery_in_flight, the attempt's record would overwrite
 * the retry), and an endpoint removed while the test message is being added (404, not 500).
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { sql } from 'kysely';
import { assertErrorBody } from '../helpers/error-body.js';
import type { TestApp } from '../helpers/test-app.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';
import { describeWebhookSuite } from '../helpers/webhook-suite.js';

const WAIT_MS = 10_000;

interface Delivery {
  id: number;
  state: string;
  attemptCount: number;
}

describeWebhookSuite(
  (dialect) => `webhook test and retry refusals on ${dialect}`,
  { env: { WEBHOOK_RETRY_SCHEDULE: '0' } },
  (suite, dialect) => {
    let t: TestApp;
    before(() => {
      t = suite.t;
    });

    const sendTest = (endpointId: number) => t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpointId}/test`, headers: t.auth });
    const retry = (endpointId: number, deliveryId: number) =>
      t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/retry`, headers: t.auth });
    const delivery = async (endpointId: number, id: number) => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpointId}/deliveries`, headers: t.auth });
      return (response.json() as Delivery[]).find((d) => d.id === id)!;
    };

    it('Attack: test and retry on a disabled endpoint answer 409 webhook_endpoint_disabled, adding or reviving nothing', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never', status: 'disabled' });
      const failed = await insertWebhookDelivery(t.database.db, { endpointId: endpoint.id, eventType: 'pet.created' });
      const message = `webhook endpoint ${endpoint.id} is disabled: nothing is sent to it; enable it first (PATCH status enabled)`;
      assertErrorBody(await sendTest(endpoint.id), { status: 409, code: 'webhook_endpoint_disabled', message });
      assertErrorBody(await retry(endpoint.id, failed.id), { status: 409, code: 'webhook_endpoint_disabled', message });
      const rows = await t.database.db.selectFrom('webhookDeliveries').select(['id', 'state']).where('endpointId', '=', endpoint.id).execute();
      assert.deepEqual(rows, [{ id: failed.id, state: 'failed' }]);
      // A delivery that is not the endpoint's is still 404, disabled or not.
      assertErrorBody(await retry(endpoint.id, failed.id + 1000), { status: 404, code: 'webhook_delivery_not_found' });
    });

    it('Attack: a retry while an attempt of the delivery is in flight answers 409 webhook_delivery_in_flight; once it ended, the retry sends it again', async () => {
      const hooks = await suite.receiver(({ index }) => (index === 0 ? 'hold' : { status: 204 }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      const sent = await sendTest(endpoint.id);
      assert.equal(sent.statusCode, 202, sent.body);
      const { id } = sent.json() as Delivery;
      const [held] = await withDeadline(hooks.waitFor(1), WAIT_MS, 'the first attempt to arrive');
      assertErrorBody(await retry(endpoint.id, id), {
        status: 409,
        code: 'webhook_delivery_in_flight',
        message: `an attempt of delivery ${id} is being sent now; retry after it ends`,
      });
      held!.answer(500);
      await waitUntil(async () => (await delivery(endpoint.id, id)).state === 'failed', { deadlineMs: WAIT_MS, what: 'the held attempt to be recorded' });
      const again = await retry(endpoint.id, id);
      assert.equal(again.statusCode, 202, again.body);
      await withDeadline(hooks.waitFor(2), WAIT_MS, 'the retry to arrive');
      await waitUntil(async () => (await delivery(endpoint.id, id)).state === 'succeeded', { deadlineMs: WAIT_MS, what: 'the retry to succeed' });
      assert.equal((await delivery(endpoint.id, id)).attemptCount, 2);
    });

    it('retry > a lease that ended (its dispatcher died mid-attempt) does not block a retry by hand', async () => {
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never' });
      const stale = await insertWebhookDelivery(t.database.db, {
        endpointId: endpoint.id,
        state: 'pending',
        nextAttemptAt: t.clock.now + 60_000,
        leaseOwner: 'dead:1',
        leaseUntil: t.clock.now - 1,
      });
      const response = await retry(endpoint.id, stale.id);
      assert.equal(response.statusCode, 202, response.body);
      assert.equal((response.json() as Delivery).state, 'pending');
    });

    // PostgreSQL only: sQLite's write transactions run one at a time: no removal can commit inside the test message's.
    if (dialect === 'postgres') {
      it('Attack: an endpoint removed by a transaction that commits while its test message is being added answers 404, not 500', async () => {
        const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'http://127.0.0.1:9/never' });
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let removing!: (pid: number) => void;
        const holder = new Promise<number>((resolve) => (removing = resolve));
        const removal = t.database.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await trx.deleteFrom('webhookEndpoints').where('id', '=', endpoint.id).execute();
          removing(rows[0]!.pid);
          await released;
        });
        const pid = await holder;
        const answer = sendTest(endpoint.id);
        // The test message's statement waits for the removal's lock: only then does the removal commit.
        await waitUntil(
          async () =>
            (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(t.database.db))
              .rows[0]!.n > 0,
          { deadlineMs: WAIT_MS, what: 'the test message to wait for the removal' },
        );
        release();
        await removal;
        assertErrorBody(await answer, { status: 404, code: 'webhook_endpoint_not_found', message: `no webhook endpoint has id ${endpoint.id}` });
      });
    }
  },
);
