/**
 * Hanging receivers delay nobody, and a delivery goes where its endpoint points when it is sent:
 * the real dispatcher on both databases, real receivers on 127.0.0.1. The attempt's timeout is the
 * default (half the lease: 30 s), far beyond every wait here, so a receiver that holds its requests
 * holds its slots for the whole test.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { PER_ENDPOINT_IN_FLIGHT } from '../../src/webhooks/webhook-dispatcher.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';
import type { TestApp } from '../helpers/test-app.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { describeWebhookSuite } from '../helpers/webhook-suite.js';

// A deadline for a failure, not a pause: a passing run waits only as long as the dispatcher takes; 15 s
// was passed once on a machine running two test suites at once (load average 9).
const WAIT_MS = 30_000;
/** More hanging endpoints than the old 64 slots held at 8 each. */
const HANGING_ENDPOINTS = 20;

describeWebhookSuite(
  (dialect) => `webhook dispatcher isolation on ${dialect}`,
  { suite: { timeout: 120_000 } },
  (suite) => {
    const { receiver } = suite;
    let t: TestApp;
    before(() => {
      t = suite.t;
    });
    const createPets = async (count: number, prefix: string) => {
      for (let i = 0; i < count; i++) await suite.createPet(`${prefix} ${i}`);
    };

    it(`Attack: ${HANGING_ENDPOINTS} endpoints hanging with backlogs > a healthy endpoint still gets its deliveries`, async () => {
      const hanging = await Promise.all(Array.from({ length: HANGING_ENDPOINTS }, () => receiver(() => 'hold')));
      for (const hooks of hanging) await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      // A backlog for each: more than its slots.
      await createPets(PER_ENDPOINT_IN_FLIGHT + 4, 'Backlog');
      const held = () => hanging.reduce((sum, hooks) => sum + hooks.received.length, 0);
      await waitUntil(() => held() >= 64, { deadlineMs: WAIT_MS, what: 'the hanging receivers to hold every slot the dispatcher had' });

      const healthy = await receiver();
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: healthy.url });
      await createPets(3, 'Healthy');
      await withDeadline(healthy.waitFor(3), WAIT_MS, 'the healthy endpoint to get its deliveries while the others hang');
      // Its deliveries (of the backlog's events too, when the fan-out came after it existed) all succeed.
      await waitUntil(
        async () =>
          (await t.database.db.selectFrom('webhookDeliveries').select('state').where('endpointId', '=', endpoint.id).execute()).every(
            (row) => row.state === 'succeeded',
          ),
        {
          deadlineMs: WAIT_MS,
          what: "the healthy endpoint's deliveries to be recorded",
        },
      );
      assert.ok(
        hanging.every((hooks) => hooks.received.length <= PER_ENDPOINT_IN_FLIGHT),
        'no hanging endpoint holds more than its own slots',
      );
    });

    it('Attack: the URL changed while claimed deliveries waited for a slot > they go to the new URL, none to the old one', async () => {
      const old = await receiver(() => 'hold');
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: old.url });
      const backlog = PER_ENDPOINT_IN_FLIGHT + 4;
      await createPets(backlog, 'Moved');
      await withDeadline(old.waitFor(PER_ENDPOINT_IN_FLIGHT), WAIT_MS, "the old receiver to hold the endpoint's slots");
      // Every delivery claimed: the ones beyond the slots wait in the process.
      await waitUntil(
        async () =>
          (await t.database.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpoint.id).where('leaseOwner', 'is not', null).execute())
            .length === backlog,
        {
          deadlineMs: WAIT_MS,
          what: 'every delivery to be claimed',
        },
      );
      const moved = await receiver();
      await t.database.db.updateTable('webhookEndpoints').set({ url: moved.url }).where('id', '=', endpoint.id).execute();
      for (const request of old.received) request.answer(200);
      await withDeadline(moved.waitFor(backlog - PER_ENDPOINT_IN_FLIGHT), WAIT_MS, 'the waiting deliveries to reach the new URL');
      await waitUntil(
        async () =>
          (await t.database.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpoint.id).where('state', '=', 'succeeded').execute())
            .length === backlog,
        {
          deadlineMs: WAIT_MS,
          what: 'every delivery to succeed',
        },
      );
      assert.equal(old.received.length, PER_ENDPOINT_IN_FLIGHT, 'nothing was sent to the old URL once it changed');
    });

    it('Attack: the endpoint disabled while claimed deliveries waited for a slot > none of them is sent', async () => {
      const hooks = await receiver(() => 'hold');
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      const backlog = PER_ENDPOINT_IN_FLIGHT + 4;
      await createPets(backlog, 'Disabled');
      await withDeadline(hooks.waitFor(PER_ENDPOINT_IN_FLIGHT), WAIT_MS, "the receiver to hold the endpoint's slots");
      await waitUntil(
        async () =>
          (await t.database.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpoint.id).where('leaseOwner', 'is not', null).execute())
            .length === backlog,
        {
          deadlineMs: WAIT_MS,
          what: 'every delivery to be claimed',
        },
      );
      // As PATCH {"status":"disabled"} leaves the row (what it does to the deliveries is the endpoints' service's).
      await t.database.db.updateTable('webhookEndpoints').set({ status: 'disabled' }).where('id', '=', endpoint.id).execute();
      for (const request of hooks.received) request.answer(200);
      await waitUntil(
        async () =>
          (await t.database.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpoint.id).where('leaseOwner', 'is not', null).execute())
            .length === 0,
        {
          deadlineMs: WAIT_MS,
          what: 'the waiting deliveries to be given back',
        },
      );
      assert.equal(hooks.received.length, PER_ENDPOINT_IN_FLIGHT, 'nothing was sent once the endpoint was disabled');
      const pending = await t.database.db
        .selectFrom('webhookDeliveries')
        .select(['attempts'])
        .where('endpointId', '=', endpoint.id)
        .where('state', '=', 'pending')
        .execute();
      assert.deepEqual(
        pending.map((row) => row.attempts),
        Array(backlog - PER_ENDPOINT_IN_FLIGHT).fill(0),
        'given back unsent, no attempt counted',
      );
    });
  },
);
