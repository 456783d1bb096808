/**
 * The dispatcher's claims (webhook-dispatch.repository.ts), on both databases, straight on the
 * SQL: fair per endpoint, only what the endpoint receives and only for enabled endpoints, and
 * leases set and compared by the database's clock, whatever the clock of the claiming process.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, it } from 'node:test';
import type { NewWebhookDeliveryRow } from '../../src/db/database.js';
import { writeTransaction } from '../../src/db/dialect.js';
import { anyDeliveryDue, claimDueDeliveries, type ClaimQuery, countDueDeliveries } from '../../src/webhooks/webhook-claims.repository.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook claims on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.db.deleteFrom('webhookEndpoints').execute());
    after(() => database.drop());

    const now = Date.now();
    let messages = 0;
    const addDeliveries = async (endpointId: number, count: number, fields: Partial<NewWebhookDeliveryRow> = {}) => {
      const rows = Array.from({ length: count }, (): NewWebhookDeliveryRow => ({
        endpointId,
        messageId: `msg_${++messages}`,
        eventType: 'pet.created',
        payload: '{}',
        state: 'pending',
        nextAttemptAt: now - 1000 + messages,
        createdAt: now,
        ...fields,
      }));
      return database.db.insertInto('webhookDeliveries').values(rows).returning('id').execute();
    };
    let claims = 0;
    const claim = (query: Partial<ClaimQuery> = {}) =>
      writeTransaction(database.db, (trx) =>
        claimDueDeliveries(trx, { owner: `test:${++claims}`, now, leaseMs: 60_000, limit: 100, perEndpoint: 16, skipEndpoints: [], ...query }),
      );

    it("Attack: one endpoint's backlog > a claim takes at most its share, and the other endpoints' due deliveries with it", async () => {
      const flooded = await insertWebhookEndpoint(database.db, { url: 'https://flooded.example/in' });
      const quiet = await insertWebhookEndpoint(database.db, { url: 'https://quiet.example/in' });
      await addDeliveries(flooded.id, 60);
      // Due after all of the backlog: a claim in due order alone would take only the flooded endpoint's.
      await addDeliveries(quiet.id, 3);
      const claimed = await claim({ limit: 20, perEndpoint: 16 });
      assert.equal(claimed.filter((row) => row.endpointId === quiet.id).length, 3);
      assert.equal(claimed.filter((row) => row.endpointId === flooded.id).length, 16);
    });

    it('Attack: a delivery of a type the endpoint no longer receives > never claimed; a webhook.test is', async () => {
      const narrowed = await insertWebhookEndpoint(database.db, { url: 'https://narrowed.example/in', events: ['pet.created'], allowedTypes: ['pet.created'] });
      // Fanned out before a PATCH narrowed the endpoint's types to pet.created.
      const [dropped] = await addDeliveries(narrowed.id, 1, { eventType: 'pet.deleted' });
      const [kept] = await addDeliveries(narrowed.id, 1);
      const [test] = await addDeliveries(narrowed.id, 1, { eventType: 'webhook.test' });
      const claimed = await claim();
      assert.deepEqual(
        claimed.map((row) => row.id).sort((a, b) => a - b),
        [kept!.id, test!.id],
      );
      assert.ok(dropped);
      assert.equal(await anyDeliveryDue(database.db, { now, skipEndpoints: [] }), false, 'nothing left that a claim would take');
    });

    it('Attack: due deliveries of a disabled endpoint only > nothing is due (no claim at every poll for nothing)', async () => {
      const disabled = await insertWebhookEndpoint(database.db, { url: 'https://disabled.example/in', status: 'disabled' });
      await addDeliveries(disabled.id, 2);
      assert.equal(await anyDeliveryDue(database.db, { now, skipEndpoints: [] }), false);
      assert.deepEqual(await claim(), []);
      const enabled = await insertWebhookEndpoint(database.db, { url: 'https://enabled.example/in' });
      await addDeliveries(enabled.id, 1);
      assert.equal(await anyDeliveryDue(database.db, { now, skipEndpoints: [] }), true);
      assert.equal(await anyDeliveryDue(database.db, { now, skipEndpoints: [enabled.id] }), false, 'an endpoint holding its share is not looked for');
    });

    it("the due deliveries gauge > counts what the dispatcher would send: not a disabled endpoint's, nor a type its endpoint no longer receives", async () => {
      const disabled = await insertWebhookEndpoint(database.db, { url: 'https://disabled.example/in', status: 'disabled' });
      await addDeliveries(disabled.id, 4);
      const enabled = await insertWebhookEndpoint(database.db, { url: 'https://enabled.example/in', allowedTypes: ['pet.created'] });
      await addDeliveries(enabled.id, 3);
      await addDeliveries(enabled.id, 2, { eventType: 'pet.deleted' });
      await addDeliveries(enabled.id, 1, { nextAttemptAt: now + 60_000 });
      assert.equal(await countDueDeliveries(database.db, now, 1000), 3);
      assert.equal(await countDueDeliveries(database.db, now, 2), 2, 'counted up to the cap');
    });

    it("Attack: a process whose clock is an hour ahead > cannot take a delivery another holds the lease of (the database's clock decides)", async () => {
      const endpoint = await insertWebhookEndpoint(database.db, { url: 'https://leased.example/in' });
      const [row] = await addDeliveries(endpoint.id, 1);
      assert.deepEqual(
        (await claim()).map((claimed) => claimed.id),
        [row!.id],
      );
      const ahead = now + 3_600_000;
      assert.equal(await anyDeliveryDue(database.db, { now: ahead, skipEndpoints: [] }), false);
      assert.deepEqual(await claim({ now: ahead }), [], "the lease holds whatever the claimer's clock says");
      const leased = await database.db.selectFrom('webhookDeliveries').select('leaseUntil').where('id', '=', row!.id).executeTakeFirstOrThrow();
      assert.ok(leased.leaseUntil! < ahead, "the lease ends by the database's clock, not the claimer's");
    });
  });
}
