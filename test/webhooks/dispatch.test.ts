/**
 * The webhook dispatcher end to end, on both databases: events written by the API reach real HTTP
 * receivers on 127.0.0.1 (WEBHOOK_ALLOWED_HOSTS), signed as Standard Webhooks says (checked with
 * the `standardwebhooks` library), retried, given up, and endpoints disabled as documented.
 * The app's clock is fixed (the test moves it), so every schedule of '0' is due at once.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { FAILING_DISABLE_MS } from '../../src/webhooks/webhook-attempt.js';
import { PER_ENDPOINT_IN_FLIGHT } from '../../src/webhooks/webhook-dispatcher.js';
import { REFUSED_NOT_PUBLIC } from '../../src/webhooks/webhook-sender.js';
import { insertWebhookEndpoint, newWebhookSecret } from '../helpers/webhook-endpoint-row.js';
import { sampleValue } from '../helpers/metrics.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { describeWebhookSuite } from '../helpers/webhook-suite.js';

const WAIT_MS = 10_000;

describeWebhookSuite(
  (dialect) => `webhook dispatcher on ${dialect}`,
  { env: { WEBHOOK_RETRY_SCHEDULE: '0,0,0' } },
  (suite, dialect) => {
    const { receiver } = suite;
    const createPet = (name = 'Rex') => suite.createPet(name);
    let t: TestApp;
    before(() => {
      t = suite.t;
    });
    const deliveriesOf = (endpointId: number) =>
      t.database.db.selectFrom('webhookDeliveries').selectAll().where('endpointId', '=', endpointId).orderBy('id').execute();
    const endpointRow = (id: number) => t.database.db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    /** Resolves once the fan-out has passed every event written so far (so any delivery of them exists). */
    const fannedOutEverything = () =>
      waitUntil(
        async () => {
          const newest = await t.database.db.selectFrom('events').select('position').orderBy('position', 'desc').executeTakeFirstOrThrow();
          const at = await t.database.db.selectFrom('webhookDispatch').select('fannedPosition').executeTakeFirstOrThrow();
          return at.fannedPosition >= newest.position;
        },
        { deadlineMs: WAIT_MS, what: 'the fan-out to pass the newest event' },
      );

    it('a pet created > the receiver gets the event as GET /v1/events shows it, verified by the standardwebhooks library', async () => {
      const hooks = await receiver();
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      const petId = await createPet('Signed');
      const [message] = await withDeadline(hooks.waitFor(1), WAIT_MS, 'the webhook to arrive');
      const body = JSON.parse(message!.body) as { id: number; type: string; data: { id: number } };
      assert.equal(body.type, 'pet.created');
      assert.equal(body.data.id, petId);
      const feed = (await t.app.inject({ method: 'GET', url: '/v1/events', headers: t.auth })).json() as { id: number }[];
      assert.equal(message!.body, JSON.stringify(feed.find((event) => event.id === body.id)), 'the body is the Event exactly as the feed shows it');
      const headers = message!.headers as Record<string, string>;
      assert.equal(headers['content-type'], 'application/json');
      assert.equal(headers['webhook-id'], `evt_${body.id}`);
      assert.match(headers['user-agent']!, /^animal-store-webhooks\/\d+\.\d+\.\d+/);
      assert.equal(Number(headers['webhook-timestamp']), Math.floor(t.clock.now / 1000));
      // The library checks the timestamp against its own clock: the app's is fixed near the real one.
      assert.deepEqual(new Webhook(endpoint.secret).verify(message!.body, headers), body);
      assert.throws(() => new Webhook(newWebhookSecret()).verify(message!.body, headers), /No matching signature/);
      await waitUntil(async () => (await deliveriesOf(endpoint.id))[0]?.state === 'succeeded', {
        deadlineMs: WAIT_MS,
        what: 'the delivery to be recorded as succeeded',
      });
    });

    it('during a rotation > two signatures, each verifying with its own secret; none of the old one once expired', async () => {
      const hooks = await receiver();
      const previousSecret = newWebhookSecret();
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url, previousSecret, previousSecretExpiresAt: t.clock.now + 1 });
      await createPet('Rotated');
      const [message] = await withDeadline(hooks.waitFor(1), WAIT_MS, 'the webhook to arrive');
      const headers = message!.headers as Record<string, string>;
      const signatures = headers['webhook-signature']!.split(' ');
      assert.equal(signatures.length, 2);
      for (const [secret, signature] of [
        [endpoint.secret, signatures[0]],
        [previousSecret, signatures[1]],
      ] as const) {
        new Webhook(secret).verify(message!.body, { ...headers, 'webhook-signature': signature! });
      }
      t.clock.now += 1;
      await createPet('After the rotation');
      const [, later] = await withDeadline(hooks.waitFor(2), WAIT_MS, 'the second webhook to arrive');
      assert.equal((later!.headers['webhook-signature'] as string).split(' ').length, 1);
    });

    it('a receiver answering 500 then 200 > gets the event twice under one webhook-id; the delivery succeeded after two attempts', async () => {
      const hooks = await receiver(({ index }) => ({ status: index === 0 ? 500 : 200 }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('Twice');
      const [first, second] = await withDeadline(hooks.waitFor(2), WAIT_MS, 'two attempts to arrive');
      assert.equal(first!.headers['webhook-id'], second!.headers['webhook-id']);
      assert.equal(first!.body, second!.body);
      await waitUntil(async () => (await deliveriesOf(endpoint.id))[0]?.state === 'succeeded', { deadlineMs: WAIT_MS, what: 'the delivery to succeed' });
      const [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery!.attempts, 2);
      const attempts = await t.database.db
        .selectFrom('webhookAttempts')
        .select(['statusCode', 'outcome', 'error'])
        .where('deliveryId', '=', delivery!.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(attempts, [
        { statusCode: 500, outcome: 'failed', error: 'answered 500' },
        { statusCode: 200, outcome: 'succeeded', error: null },
      ]);
      assert.equal((await endpointRow(endpoint.id)).failingSince, null, 'a success ends the failing spell');
    });

    it('a receiver answering 410 > the endpoint is disabled (receiver_gone) and gets nothing more', async () => {
      const hooks = await receiver(() => ({ status: 410 }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('Gone');
      await withDeadline(hooks.waitFor(1), WAIT_MS, 'the webhook to arrive');
      await waitUntil(async () => (await endpointRow(endpoint.id)).status === 'disabled', { deadlineMs: WAIT_MS, what: 'the endpoint to be disabled' });
      assert.equal((await endpointRow(endpoint.id)).disabledReason, 'receiver_gone');
      assert.equal((await deliveriesOf(endpoint.id))[0]!.state, 'failed');
      await createPet('Not sent');
      await fannedOutEverything();
      assert.equal((await deliveriesOf(endpoint.id)).length, 1, 'no delivery for an event after the endpoint was disabled');
      assert.equal(hooks.received.length, 1);
    });

    it('a 503 with Retry-After > the next attempt is due no sooner than it asks, past the schedule', async () => {
      const hooks = await receiver(() => ({ status: 503, headers: { 'retry-after': '120' } }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('Later');
      await withDeadline(hooks.waitFor(1), WAIT_MS, 'the webhook to arrive');
      await waitUntil(async () => (await deliveriesOf(endpoint.id))[0]?.attempts === 1, { deadlineMs: WAIT_MS, what: 'the attempt to be recorded' });
      const [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery!.state, 'pending');
      assert.equal(delivery!.nextAttemptAt, t.clock.now + 120_000);
    });

    it('every attempt failing > the delivery has failed after the schedule (three attempts)', async () => {
      const hooks = await receiver(() => ({ status: 500 }));
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('Never');
      await waitUntil(async () => (await deliveriesOf(endpoint.id))[0]?.state === 'failed', { deadlineMs: WAIT_MS, what: 'the delivery to fail' });
      const [delivery] = await deliveriesOf(endpoint.id);
      assert.equal(delivery!.attempts, 3);
      assert.equal(delivery!.nextAttemptAt, null);
      assert.equal(hooks.received.length, 3);
      assert.equal((await endpointRow(endpoint.id)).failingSince, t.clock.now);
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.ok(sampleValue(metrics, 'animal_store_webhook_deliveries_failed_total')! >= 1);
      assert.ok(sampleValue(metrics, 'animal_store_webhook_attempts_total', { outcome: 'failed' })! >= 3);
    });

    it('an endpoint failing for 5 days > disabled (failing) at its next failure; one failing for less is not', async () => {
      const hooks = await receiver(() => ({ status: 500 }));
      const fiveDays = FAILING_DISABLE_MS;
      const old = await insertWebhookEndpoint(t.database.db, { url: hooks.url, failingSince: t.clock.now - fiveDays });
      const recent = await insertWebhookEndpoint(t.database.db, { url: hooks.url, failingSince: t.clock.now - fiveDays + 1 });
      await createPet('Failing');
      await waitUntil(async () => (await endpointRow(old.id)).status === 'disabled', {
        deadlineMs: WAIT_MS,
        what: 'the endpoint failing for 5 days to be disabled',
      });
      assert.equal((await endpointRow(old.id)).disabledReason, 'failing');
      await waitUntil(async () => (await deliveriesOf(recent.id))[0]?.state === 'failed', {
        deadlineMs: WAIT_MS,
        what: 'the other endpoint to fail its schedule',
      });
      assert.equal((await endpointRow(recent.id)).status, 'enabled');
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /animal_store_webhook_endpoints_disabled_total\{reason="failing"\} [1-9]/);
    });

    it('a receiver that hangs > holds at most its own slots; another endpoint gets its deliveries meanwhile', async () => {
      const hanging = await receiver(() => 'hold');
      const stuck = await insertWebhookEndpoint(t.database.db, { url: hanging.url });
      for (let i = 0; i < PER_ENDPOINT_IN_FLIGHT + 4; i++) await createPet(`Backlog ${i}`);
      await withDeadline(hanging.waitFor(PER_ENDPOINT_IN_FLIGHT), WAIT_MS, 'the hanging receiver to hold its share');
      const quick = await receiver();
      await insertWebhookEndpoint(t.database.db, { url: quick.url });
      for (let i = 0; i < 3; i++) await createPet(`Busy ${i}`);
      await withDeadline(quick.waitFor(3), WAIT_MS, 'the other endpoint to get its deliveries while the first hangs');
      assert.equal(hanging.received.length, PER_ENDPOINT_IN_FLIGHT, "the hanging endpoint's other deliveries wait for its slots");
      // The other endpoint's deliveries all settle; the hanging one's stay pending, every one due (the clock is fixed).
      await waitUntil(
        async () =>
          (await t.database.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '!=', stuck.id).where('state', '=', 'pending').execute())
            .length === 0,
        {
          deadlineMs: WAIT_MS,
          what: "the other endpoint's deliveries to settle",
        },
      );
      const pending = await t.database.db.selectFrom('webhookDeliveries').select('id').where('state', '=', 'pending').execute();
      assert.ok(pending.length >= PER_ENDPOINT_IN_FLIGHT + 4);
      assert.equal(sampleValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, 'animal_store_webhook_deliveries_due'), pending.length);
    });

    it('an address that is not public at connection time > the attempt is refused, nothing connects', async () => {
      const looked: string[] = [];
      const refusing = await createTestApp(dialect, {
        env: { WEBHOOK_RETRY_SCHEDULE: '0' },
        hooks: {
          webhookDispatcher: {
            pollMs: 20,
            // A name that resolved to a public address at registration now resolves to a private one.
            lookup: ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
              looked.push(hostname);
              if (options.all) callback(null, [{ address: '10.20.30.40', family: 4 }]);
              else callback(null, '10.20.30.40', 4);
            }) as never,
          },
        },
      });
      try {
        const named = await insertWebhookEndpoint(refusing.database.db, { url: 'https://hooks.example.com/in' });
        const literal = await insertWebhookEndpoint(refusing.database.db, { url: 'https://169.254.169.254/latest' });
        const response = await refusing.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...refusing.auth, 'content-type': 'application/json' },
          payload: { name: 'Ssrf', categoryId: 3 },
        });
        assert.equal(response.statusCode, 201);
        for (const endpoint of [named, literal]) {
          await waitUntil(
            async () =>
              (await refusing.database.db.selectFrom('webhookDeliveries').select('state').where('endpointId', '=', endpoint.id).executeTakeFirst())?.state ===
              'failed',
            { deadlineMs: WAIT_MS, what: 'the refused delivery to fail' },
          );
          const attempt = await refusing.database.db
            .selectFrom('webhookAttempts')
            .innerJoin('webhookDeliveries', 'webhookDeliveries.id', 'webhookAttempts.deliveryId')
            .select(['webhookAttempts.error', 'webhookAttempts.statusCode'])
            .where('webhookDeliveries.endpointId', '=', endpoint.id)
            .executeTakeFirstOrThrow();
          assert.deepEqual(attempt, { error: REFUSED_NOT_PUBLIC, statusCode: null });
          assert.equal(REFUSED_NOT_PUBLIC, 'refused: not a public address');
        }
        assert.deepEqual([...new Set(looked)], ['hooks.example.com'], 'the name was looked up at connection time; the IP literal was refused without a lookup');
        assert.match((await refusing.app.inject({ method: 'GET', url: '/metrics' })).body, /animal_store_webhook_attempts_total\{outcome="refused"\} [2-9]/);
      } finally {
        await refusing.close();
      }
    });

    it("an endpoint deleted while an attempt is in flight > its deliveries go, and the attempt's outcome is dropped without an error", async () => {
      const hooks = await receiver(() => 'hold');
      const endpoint = await insertWebhookEndpoint(t.database.db, { url: hooks.url });
      await createPet('Deleted mid-flight');
      const [held] = await withDeadline(hooks.waitFor(1), WAIT_MS, 'the webhook to arrive');
      await t.database.db.deleteFrom('webhookEndpoints').where('id', '=', endpoint.id).execute();
      assert.equal((await deliveriesOf(endpoint.id)).length, 0);
      held!.answer(200);
      await withDeadline(
        t.waitForLog((line) => line.deliveryId !== undefined && String(line.msg).includes('its outcome is not recorded')),
        WAIT_MS,
        'the dropped outcome to be logged',
      );
      assert.equal(t.logs.filter((line) => String(line.msg).startsWith('could not record a webhook attempt')).length, 0);
    });
  },
);
