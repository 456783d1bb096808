/**
 * An attempt's record against the changes of its endpoint, through the dispatcher's own functions
 * in its own order (claim, attemptDelivery: read the endpoint, send to a real receiver, record):
 * - the record locks the endpoint before the delivery, as a PATCH or DELETE does (PostgreSQL: the
 *   other order deadlocked, 40P01);
 * - an attempt in flight while its delivery is stopped (endpoint disabled, types narrowed) is still
 *   recorded: its receiver got it; the delivery stays failed (succeeded, when that attempt was answered
 *   with a 2xx), and becomes retryable by hand once the
 *   attempt ends (or its lease does, when the attempt died);
 * - an endpoint's read that took too much of the lease leaves the delivery unsent, and the send gets
 *   only what is left of the lease.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, it } from 'node:test';
import { sql } from 'kysely';
import { databaseNowMs, writeTransaction } from '../../src/db/dialect.js';
import { attemptDelivery } from '../../src/webhooks/webhook-attempt.js';
import { makeDeliveryDue } from '../../src/webhooks/webhook-deliveries.repository.js';
import { disableEndpoint, stopDeliveriesOutside, stopPendingDeliveries } from '../../src/webhooks/webhook-dispatch.repository.js';
import { RECORD_MARGIN_MS } from '../../src/webhooks/webhook-lease.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { attemptContextForTests, type AttemptContextForTests, claimForTests } from '../helpers/webhook-attempt-context.js';
import { insertWebhookDelivery, insertWebhookEndpoint, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-endpoint-row.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook attempt records against endpoint changes on ${dialect}`, { timeout: 60_000 }, () => {
    let database: TestDatabase;
    let attempts: AttemptContextForTests;
    let receiver: WebhookReceiver | undefined;
    before(async () => {
      database = await createTestDatabase(dialect);
      attempts = attemptContextForTests(database.db);
    });
    afterEach(async () => {
      await receiver?.close();
      receiver = undefined;
      await database.db.deleteFrom('webhookEndpoints').execute();
    });
    after(async () => {
      attempts.close();
      await database.drop();
    });

    const db = () => database.db;
    /** An endpoint at a receiver that holds every request until told, and one due delivery of it, claimed. */
    const claimedDeliveryAtHoldingReceiver = async () => {
      receiver = await startWebhookReceiver(() => 'hold');
      const endpoint = await insertWebhookEndpoint(db(), { url: receiver.url });
      await insertWebhookDelivery(db(), { endpointId: endpoint.id, eventType: 'pet.created', state: 'pending', nextAttemptAt: Date.now() - 1 });
      const [claim] = await claimForTests(db());
      assert.ok(claim);
      return { endpoint, claim, receiver };
    };
    const deliveryRow = (id: number) =>
      db()
        .selectFrom('webhookDeliveries')
        .select(['state', 'attempts', 'nextAttemptAt', 'leaseOwner', 'leaseUntil'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const attemptRows = (id: number) => db().selectFrom('webhookAttempts').select(['statusCode', 'outcome']).where('deliveryId', '=', id).execute();

    const stops = {
      'its endpoint disabled (a PATCH, or a 410 of another attempt)': (endpointId: number) =>
        writeTransaction(db(), (trx) => disableEndpoint(trx, endpointId, 'receiver_gone', Date.now())),
      'its type no longer received (a PATCH narrowed the types)': (endpointId: number) =>
        writeTransaction(db(), (trx) => stopDeliveriesOutside(trx, endpointId, ['order.placed'])),
    };
    for (const [[why, stop], answer] of Object.entries(stops).flatMap(
      (entry) =>
        [
          [entry, 200],
          [entry, 500],
        ] as const,
    )) {
      it(`Attack: an attempt in flight when its delivery is stopped (${why}), answered ${answer} > its attempt is recorded, the delivery is succeeded (a 2xx) or stays failed, retryable once the attempt ends`, async () => {
        const { endpoint, claim, receiver: hooks } = await claimedDeliveryAtHoldingReceiver();
        const sent = attemptDelivery(attempts.context, claim, new AbortController().signal);
        const [request] = await withDeadline(hooks.waitFor(1), 10_000, 'the attempt to reach the receiver');
        await stop(endpoint.id);
        assert.equal(
          await makeDeliveryDue(db(), endpoint.id, claim.delivery.id, Date.now()),
          undefined,
          'a retry by hand waits while the attempt is in flight',
        );
        request!.answer(answer);
        await (
          await sent
        ).recorded;

        const outcome = answer === 200 ? 'succeeded' : 'failed';
        assert.deepEqual(await attemptRows(claim.delivery.id), [{ statusCode: answer, outcome }], 'the attempt the receiver got is in the history');
        assert.deepEqual(await deliveryRow(claim.delivery.id), { state: outcome, attempts: 1, nextAttemptAt: null, leaseOwner: null, leaseUntil: null });
        assert.equal(
          (await makeDeliveryDue(db(), endpoint.id, claim.delivery.id, Date.now()))?.state,
          'pending',
          'retryable by hand once the attempt has ended',
        );
      });
    }

    it('Attack: a stopped delivery whose attempt died with its process > retryable by hand once its lease ends, not before', async () => {
      const endpoint = await insertWebhookEndpoint(db(), { url: 'https://gone.example/in' });
      const clock = await databaseNowMs(db());
      const live = await insertWebhookDelivery(db(), {
        endpointId: endpoint.id,
        eventType: 'pet.created',
        state: 'pending',
        nextAttemptAt: 1,
        leaseOwner: 'dead:1',
        leaseUntil: clock + 600_000,
      });
      const ended = await insertWebhookDelivery(db(), {
        endpointId: endpoint.id,
        eventType: 'pet.created',
        state: 'pending',
        nextAttemptAt: 1,
        leaseOwner: 'dead:2',
        leaseUntil: clock - 1,
      });
      await writeTransaction(db(), (trx) => stopPendingDeliveries(trx, endpoint.id));
      assert.equal((await deliveryRow(live.id)).state, 'failed');
      assert.equal(await makeDeliveryDue(db(), endpoint.id, live.id, Date.now()), undefined, 'its lease still holds');
      assert.equal((await makeDeliveryDue(db(), endpoint.id, ended.id, Date.now()))?.state, 'pending');
      assert.deepEqual(await deliveryRow(ended.id), {
        state: 'pending',
        attempts: 0,
        nextAttemptAt: (await deliveryRow(ended.id)).nextAttemptAt,
        leaseOwner: null,
        leaseUntil: null,
      });
    });

    it("Attack: the endpoint's read before the send ended too near the lease's end > the delivery is given back unsent", async () => {
      const { claim, receiver: hooks } = await claimedDeliveryAtHoldingReceiver();
      // As if the read had waited (for a pool connection, or a lock) until less than half the attempt's timeout was left.
      const late = { ...claim, leaseDeadline: performance.now() + RECORD_MARGIN_MS + attempts.context.timeoutMs / 4 };
      await (
        await attemptDelivery(attempts.context, late, new AbortController().signal)
      ).recorded;
      assert.equal(hooks.received.length, 0, 'nothing was sent');
      assert.equal(attempts.unstarted(), 1, 'counted as unstarted');
      assert.deepEqual(
        await deliveryRow(claim.delivery.id),
        { state: 'pending', attempts: 0, nextAttemptAt: (await deliveryRow(claim.delivery.id)).nextAttemptAt, leaseOwner: null, leaseUntil: null },
        'given back: claimable at once',
      );
    });

    it("Attack: less than the attempt's timeout left of the lease after the endpoint's read > the send is given only what is left", async () => {
      const short = attemptContextForTests(db(), { timeoutMs: 2000 });
      try {
        const { claim } = await claimedDeliveryAtHoldingReceiver();
        // 1.5 s of the 2 s timeout left once the record's margin is kept: the held request times out with the lease, not after it.
        const late = { ...claim, leaseDeadline: performance.now() + RECORD_MARGIN_MS + 1500 };
        await (
          await attemptDelivery(short.context, late, new AbortController().signal)
        ).recorded;
        const [attempt] = await db().selectFrom('webhookAttempts').select('error').where('deliveryId', '=', claim.delivery.id).execute();
        const within = Number(/^timeout: no answer within ([\d.]+) s$/.exec(attempt?.error ?? '')?.[1]);
        assert.ok(within >= 1 && within <= 1.5, attempt?.error ?? 'no attempt recorded');
      } finally {
        short.close();
      }
    });

    const answers = {
      'a failure (500)': { status: 500, outcome: 'failed' },
      'a success ending a failing spell (200)': { status: 200, outcome: 'succeeded' },
    } as const;
    for (const [what, answer] of dialect === 'postgres' ? Object.entries(answers) : []) {
      it(`Attack: ${what} records while a PATCH or DELETE holds its endpoint > it waits for the endpoint before locking its delivery (no deadlock)`, async () => {
        const { endpoint, claim, receiver: hooks } = await claimedDeliveryAtHoldingReceiver();
        await db()
          .updateTable('webhookEndpoints')
          .set({ failingSince: Date.now() - 1000 })
          .where('id', '=', endpoint.id)
          .execute();
        const sent = attemptDelivery(attempts.context, claim, new AbortController().signal);
        const [request] = await withDeadline(hooks.waitFor(1), 10_000, 'the attempt to reach the receiver');
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let holderPid!: number;
        let held!: () => void;
        const holding = new Promise<void>((resolve) => (held = resolve));
        // A PATCH's order: the endpoint's row, then (once the record waits) its deliveries.
        const patch = database.db.transaction().execute(async (trx) => {
          holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
          await trx.selectFrom('webhookEndpoints').select('id').where('id', '=', endpoint.id).forUpdate().executeTakeFirstOrThrow();
          held();
          await released;
          // Without the record's lock order, the record holds this row and waits for the endpoint: this fails at once (55P03).
          const locked = await sql`select id from webhook_deliveries where id = ${claim.delivery.id} for update nowait`.execute(trx);
          await trx.updateTable('webhookEndpoints').set({ updatedAt: Date.now() }).where('id', '=', endpoint.id).execute();
          return locked.rows.length;
        });
        await holding;
        request!.answer(answer.status);
        const recorded = (await sent).recorded;
        await waitUntil(
          async () =>
            (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`.execute(database.db))
              .rows[0]!.n > 0,
          {
            deadlineMs: 10_000,
            what: 'the record to wait for the endpoint held by the PATCH',
          },
        );
        release();
        assert.equal(await patch, 1, 'the PATCH locked the delivery: the waiting record held nothing of it');
        await recorded;
        assert.deepEqual(await attemptRows(claim.delivery.id), [{ statusCode: answer.status, outcome: answer.outcome }]);
        assert.equal((await deliveryRow(claim.delivery.id)).attempts, 1);
      });
    }
  });
}
