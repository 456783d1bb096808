/**
 * The fan-out and the deliveries' retention as functions on a real database of each dialect (no
 * app, so no dispatcher runs meanwhile): which endpoints get which events, the position's moves
 * (past events nobody receives, over events purged before they were fanned out), and the purge of
 * settled deliveries with their attempts.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { numberWaitingEvents } from '../../src/events/events.sequencer.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { purgeEventsBefore } from '../../src/events/events.retention.js';
import { purgeOldDeliveries } from '../../src/webhooks/webhook-deliveries.retention.js';
import { fanOutBatch, passOverWhenNobodyReceives } from '../../src/webhooks/webhook-fan-out.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook fan-out and retention on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    const now = 1_800_000_000_000;
    // Written straight to the database, with no service to number the events (PostgreSQL): numbered here.
    const fanOut = async () => {
      await numberWaitingEvents(database.db);
      return fanOutBatch(database.db, { now, firstAttemptAt: () => now + 7 });
    };
    const pet = async (name: string) => {
      const row = await insertPet(database.db, { name, categoryId: 1, status: 'available', createdAt: now });
      await numberWaitingEvents(database.db);
      return row;
    };
    const deliveries = () => database.db.selectFrom('webhookDeliveries').selectAll().orderBy('id').execute();
    const clear = async () => {
      await database.db.deleteFrom('webhookEndpoints').execute();
      while ((await fanOut()).events > 0);
    };

    it("events > one delivery per receiving endpoint, of the types it asked for that its creator could read; the feed's Event as payload", async () => {
      const everything = await insertWebhookEndpoint(database.db, { url: 'https://a.example.com/' });
      const narrowed = await insertWebhookEndpoint(database.db, {
        url: 'https://b.example.com/',
        events: ['pet.*'],
        allowedTypes: ['pet.created', 'order.placed'],
      });
      await insertWebhookEndpoint(database.db, { url: 'https://c.example.com/', status: 'disabled' });
      const created = await pet('Fanned');
      await database.db.updateTable('pets').set({ name: 'Renamed' }).where('id', '=', created.id).execute();
      const batch = await fanOut();
      assert.deepEqual([batch.events, batch.full, batch.deliveries], [2, false, 3]);
      const rows = await deliveries();
      assert.deepEqual(
        rows.map((row) => [row.endpointId, row.eventType, row.state, row.nextAttemptAt, row.attempts]),
        [
          [everything.id, 'pet.created', 'pending', now + 7, 0],
          [narrowed.id, 'pet.created', 'pending', now + 7, 0],
          [everything.id, 'pet.updated', 'pending', now + 7, 0],
        ],
      );
      const event = JSON.parse(rows[0]!.payload) as { id: number; type: string; data: { id: number; name: string } };
      assert.equal(rows[0]!.messageId, `evt_${event.id}`);
      assert.equal(rows[0]!.eventId, event.id);
      assert.deepEqual([event.type, event.data.id, event.data.name], ['pet.created', created.id, 'Fanned']);
      assert.deepEqual(await fanOut(), { events: 0, full: false, deliveries: 0 }, 'each event is fanned out once');
      await clear();
    });

    it('many endpoints > a batch reads fewer events, so it writes at most 2,000 deliveries', async () => {
      for (let i = 0; i < 41; i++) await insertWebhookEndpoint(database.db, { url: `https://many${i}.example.com/`, events: ['pet.created'] });
      for (let i = 0; i < 50; i++) await pet(`Many ${i}`);
      const first = await fanOut();
      assert.deepEqual([first.events, first.full, first.deliveries], [48, true, 48 * 41]);
      const second = await fanOut();
      assert.deepEqual([second.events, second.full, second.deliveries], [2, false, 2 * 41]);
      await clear();
    });

    it('no endpoint > the position moves past the events without delivering them; an endpoint made later gets only later events', async () => {
      await pet('Unheard');
      assert.deepEqual(await fanOut(), { events: 0, full: false, deliveries: 0 });
      const endpoint = await insertWebhookEndpoint(database.db, { url: 'https://late.example.com/' });
      const later = await pet('Heard');
      await fanOut();
      const rows = await deliveries();
      assert.deepEqual(
        rows.map((row) => [row.endpointId, (JSON.parse(row.payload) as { data: { id: number } }).data.id]),
        [[endpoint.id, later.id]],
      );
      await clear();
    });

    it('events purged before they were fanned out > skipped from the purged position on, and told', async () => {
      await insertWebhookEndpoint(database.db, { url: 'https://d.example.com/' });
      await pet('Purged');
      await purgeEventsBefore(database.db, Number.MAX_SAFE_INTEGER);
      const kept = await pet('Kept');
      const batch = await fanOut();
      assert.ok(batch.skippedPurgedFrom, 'the skip is told');
      assert.deepEqual(
        (await deliveries()).map((row) => (JSON.parse(row.payload) as { data: { id: number } }).data.id),
        [kept.id],
      );
      assert.equal((await fanOut()).skippedPurgedFrom, undefined, 'told once');
      await clear();
    });

    it('passOverWhenNobodyReceives > with no endpoint receiving, moves the position past the events in one statement; with one, moves nothing', async () => {
      await insertWebhookEndpoint(database.db, { url: 'https://off.example.com/', status: 'disabled' });
      await pet('Nobody hears');
      assert.equal(await passOverWhenNobodyReceives(database.db), true);
      const endpoint = await insertWebhookEndpoint(database.db, { url: 'https://on.example.com/' });
      const heard = await pet('Heard after');
      assert.equal(await passOverWhenNobodyReceives(database.db), false);
      await fanOut();
      assert.deepEqual(
        (await deliveries()).map((row) => [row.endpointId, (JSON.parse(row.payload) as { data: { id: number } }).data.id]),
        [[endpoint.id, heard.id]],
      );
      await clear();
    });

    it('purgeOldDeliveries > settled deliveries older than the cutoff go with their attempts; pending and newer ones stay', async () => {
      const endpoint = await insertWebhookEndpoint(database.db, { url: 'https://e.example.com/' });
      const insert = (state: 'pending' | 'succeeded' | 'failed', createdAt: number) =>
        database.db
          .insertInto('webhookDeliveries')
          .values({
            endpointId: endpoint.id,
            messageId: `m_${state}_${createdAt}`,
            eventId: null,
            eventType: 'webhook.test',
            payload: '{}',
            state,
            nextAttemptAt: null,
            createdAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const oldDone = await insert('succeeded', 1000);
      await database.db
        .insertInto('webhookAttempts')
        .values({ deliveryId: oldDone.id, attemptedAt: 1000, durationMs: 3, statusCode: 200, error: null, outcome: 'succeeded' })
        .execute();
      await insert('failed', 1000);
      const oldPending = await insert('pending', 1000);
      const recent = await insert('failed', 5000);
      const disabled = await insertWebhookEndpoint(database.db, { url: 'https://f.example.com/', status: 'disabled' });
      await database.db
        .insertInto('webhookDeliveries')
        .values({
          endpointId: disabled.id,
          messageId: 'm_disabled',
          eventId: null,
          eventType: 'webhook.test',
          payload: '{}',
          state: 'pending',
          nextAttemptAt: 1000,
          createdAt: 1000,
        })
        .execute();
      assert.equal(await purgeOldDeliveries(database.db, 2000, { batchSize: 1 }), 3, 'an old pending delivery of a disabled endpoint goes too');
      assert.deepEqual(
        (await deliveries()).map((row) => row.id),
        [oldPending.id, recent.id],
      );
      assert.equal((await database.db.selectFrom('webhookAttempts').select('id').execute()).length, 0);
      await clear();
    });
  });
}
