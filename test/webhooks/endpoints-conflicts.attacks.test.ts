/**
 * Hostile review, PostgreSQL only: the removal of a webhook endpoint cascades to its
 * deliveries, which a dispatcher recording an attempt locks before it updates the endpoint (its
 * failing spell). The two orders meet in a deadlock, and PostgreSQL aborts one: when it is the
 * removal, it must be run again (retried write transaction), not answered 500.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { describeOnPostgres } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

const WAIT_MS = 15_000;

describeOnPostgres('webhook endpoint writes meeting concurrent ones', {}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
  });
  after(() => t.close());

  it('Attack: a removal chosen as a deadlock victim against an attempt being recorded > run again, answered 204, not 500', async () => {
    const endpoint = await insertWebhookEndpoint(t.database.db, { url: 'https://receiver.example/' });
    const delivery = await insertWebhookDelivery(t.database.db, { endpointId: endpoint.id, eventType: 'pet.created', state: 'pending' });
    let removal!: Promise<{ statusCode: number; body: string }>;
    await t.database.db.transaction().execute(async (trx) => {
      // This side never looks for the deadlock: the removal's side does (after the server's 1 s), so it is the victim.
      await sql`set local deadlock_timeout = '60s'`.execute(trx);
      const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!;
      // As the record of an attempt: the delivery first…
      await trx.selectFrom('webhookDeliveries').select('id').where('id', '=', delivery.id).forUpdate().execute();
      removal = t.app.inject({ method: 'DELETE', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: t.auth });
      // …then, once the removal holds the endpoint and waits for the delivery, the endpoint.
      await waitUntil(
        async () =>
          (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`.execute(t.database.db))
            .rows[0]!.n > 0,
        {
          deadlineMs: WAIT_MS,
          what: 'the removal to wait for the delivery',
        },
      );
      await trx.updateTable('webhookEndpoints').set({ failingSince: 1 }).where('id', '=', endpoint.id).execute();
    });
    const response = await removal;
    assert.equal(response.statusCode, 204, response.body);
    assert.equal(await t.database.db.selectFrom('webhookEndpoints').select('id').where('id', '=', endpoint.id).executeTakeFirst(), undefined);
    assert.equal(await t.database.db.selectFrom('webhookDeliveries').select('id').where('id', '=', delivery.id).executeTakeFirst(), undefined);
  });
});
