/**
 * The purge of old webhook deliveries (webhook-deliveries.retention.ts) runs every minute in every
 * process: it must seek the old deliveries in an index, never read the whole table. The statement
 * explained is the purge's own (selectOldDeliveriesBatch, deleteDeliveriesById).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { deleteDeliveriesById, selectOldDeliveriesBatch } from '../../src/webhooks/webhook-deliveries.retention.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook deliveries purge query plan on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
      // A store whose deliveries are mostly recent (the planner's statistics as they would be):
      // 20,000 deliveries, the 100 oldest before the cutoff.
      const { id } = await database.db
        .insertInto('webhookEndpoints')
        .values({
          url: 'https://hooks.example.com/',
          events: '["pet.*"]',
          allowedTypes: '["pet.created"]',
          status: 'enabled',
          secret: 'whsec_x',
          createdAt: 1,
          updatedAt: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const numbers =
        dialect === 'sqlite'
          ? sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000) select i from n)`
          : sql`(select generate_series(1, 20000) as i)`;
      await sql`insert into webhook_deliveries (endpoint_id, message_id, event_type, payload, state, attempts, created_at)
        select ${id}, 'evt_' || i, 'pet.created', '{}', case when i % 10 = 0 then 'pending' else 'succeeded' end, 1, i * 1000 from ${numbers} as numbers`.execute(
        database.db,
      );
      // This store's tables only: a bare ANALYZE on PostgreSQL reads every schema of the database, the other test files' too.
      await (dialect === 'sqlite' ? sql`analyze` : sql`analyze webhook_deliveries, webhook_endpoints`).execute(database.db);
    });
    after(() => database.drop());

    const planOf = async (query: { sql: string; parameters: readonly unknown[] }) => {
      const prefix = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
      return result.rows.map((row) => row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row)).join('\n');
    };

    it('Attack: the purge every minute > seeks the deliveries older than the cutoff in the created_at index, never scans the table', async () => {
      const plan = await planOf(selectOldDeliveriesBatch(database.db, 100_500, 500).compile());
      if (dialect === 'sqlite') {
        assert.match(plan, /SEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_created_idx \(created_at<\?\)/, plan);
        assert.doesNotMatch(plan, /SCAN webhook_deliveries\b/, plan);
      } else {
        assert.match(
          plan,
          /(Index|Index Only) Scan using webhook_deliveries_created_idx on webhook_deliveries|Bitmap Index Scan on webhook_deliveries_created_idx/,
          plan,
        );
        assert.doesNotMatch(plan, /Seq Scan on webhook_deliveries/, plan);
      }
    });

    it('Attack: the purge every minute > deletes a batch by primary key, never scans the table', async () => {
      const ids = Array.from({ length: 500 }, (_, i) => i + 1);
      const plan = await planOf(deleteDeliveriesById(database.db, ids).compile());
      if (dialect === 'sqlite') {
        assert.match(plan, /SEARCH webhook_deliveries USING INTEGER PRIMARY KEY \(rowid=\?\)/, plan);
        assert.doesNotMatch(plan, /SCAN webhook_deliveries\b/, plan);
      } else {
        assert.match(plan, /webhook_deliveries_pkey/, plan);
        assert.doesNotMatch(plan, /Seq Scan on webhook_deliveries/, plan);
      }
    });
  });
}
