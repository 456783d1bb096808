/**
 * Leases of claimed deliveries, through the dispatcher's own SQL (webhook-claims.repository.ts, webhook-dispatch.repository.ts):
 * while a lease holds nobody else claims the delivery; once it has ended (by the database's clock) another dispatcher takes
 * it over, and the first owner, coming back late from its send, writes nothing: no attempt, no
 * state, and it cannot give back the new owner's lease.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { singleWrite } from '../../src/db/dialect.js';
import { claimDueDeliveries } from '../../src/webhooks/webhook-claims.repository.js';
import { recordAttempt, releaseDeliveries, type AttemptRecord } from '../../src/webhooks/webhook-dispatch.repository.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

const LEASE_MS = 60_000;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook delivery leases on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    const claim = (owner: string, now: number) =>
      singleWrite(database.db, (trx) => claimDueDeliveries(trx, { owner, now, leaseMs: LEASE_MS, limit: 10, perEndpoint: 10, skipEndpoints: [] }));
    const record = (fields: Pick<AttemptRecord, 'deliveryId' | 'owner' | 'attemptedAt'> & Partial<AttemptRecord>) =>
      singleWrite(database.db, (trx) =>
        recordAttempt(trx, { durationMs: 5, statusCode: 200, error: null, succeeded: true, state: 'succeeded', nextAttemptAt: null, ...fields }),
      );
    const deliveryRow = (id: number) => database.db.selectFrom('webhookDeliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const attemptsOf = (id: number) => database.db.selectFrom('webhookAttempts').selectAll().where('deliveryId', '=', id).execute();

    it("Attack: a lease that ended is taken over > the first owner's late record writes nothing, its release leaves the new lease; the new owner's record counts", async () => {
      const start = 1_000_000;
      const endpoint = await insertWebhookEndpoint(database.db, { url: 'http://127.0.0.1:9/hooks', now: start });
      const { id } = await database.db
        .insertInto('webhookDeliveries')
        .values({
          endpointId: endpoint.id,
          messageId: 'evt_1',
          eventId: 1,
          eventType: 'pet.created',
          payload: '{}',
          state: 'pending',
          attempts: 0,
          nextAttemptAt: start,
          createdAt: start,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      assert.deepEqual(
        (await claim('first', start)).map((row) => row.id),
        [id],
      );
      assert.deepEqual(await claim('second', start), [], 'nobody else claims it while the lease holds');
      // Leases are set and compared by the database's clock: the lease's end is moved into the past, as time would.
      await database.db
        .updateTable('webhookDeliveries')
        .set((eb) => ({ leaseUntil: eb('leaseUntil', '-', 2 * LEASE_MS) }))
        .where('id', '=', id)
        .execute();
      const takenOver = start + 1;
      assert.deepEqual(
        (await claim('second', takenOver)).map((row) => row.id),
        [id],
        'claimed again once the lease ended',
      );

      // The first owner comes back from a send that outlived its lease: a failure it would retry.
      const late = await record({
        deliveryId: id,
        owner: 'first',
        attemptedAt: takenOver + 1,
        statusCode: 500,
        succeeded: false,
        state: 'pending',
        nextAttemptAt: takenOver + 5_000,
      });
      assert.equal(late, undefined, 'the late record is refused');
      await releaseDeliveries(database.db, [id], 'first');
      const untouched = await deliveryRow(id);
      assert.deepEqual(
        {
          state: untouched.state,
          attempts: untouched.attempts,
          nextAttemptAt: untouched.nextAttemptAt,
          leaseOwner: untouched.leaseOwner,
          lastAttemptAt: untouched.lastAttemptAt,
        },
        { state: 'pending', attempts: 0, nextAttemptAt: start, leaseOwner: 'second', lastAttemptAt: null },
      );
      assert.deepEqual(await attemptsOf(id), [], 'no attempt recorded for the late owner');

      assert.deepEqual(await record({ deliveryId: id, owner: 'second', attemptedAt: takenOver + 2 }), { endpointId: endpoint.id, wasPending: true });
      const done = await deliveryRow(id);
      assert.deepEqual({ state: done.state, attempts: done.attempts, leaseOwner: done.leaseOwner }, { state: 'succeeded', attempts: 1, leaseOwner: null });
      assert.deepEqual(
        (await attemptsOf(id)).map((attempt) => [attempt.outcome, attempt.statusCode]),
        [['succeeded', 200]],
      );
    });
  });
}
