/**
 * The dispatcher's claim runs every round and its look for due deliveries every poll (500 ms) in
 * every process, inside SQLite's write lock for the claim: each must go endpoint by endpoint,
 * seeking a few rows of each in webhook_deliveries_endpoint_due_idx, and never read the due backlog
 * of an endpoint left out (one whose receiver hangs holds its share in the process, and its backlog
 * grows). The statements explained are the dispatcher's own (webhook-claims.repository.ts).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { anyDueStatement, claimStatement, countDueStatement } from '../../src/webhooks/webhook-claims.repository.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook claims query plan on ${dialect}`, {}, () => {
    let database: TestDatabase;
    let hanging: number;
    before(async () => {
      database = await createTestDatabase(dialect);
      // A store as the planner would see it with a hanging receiver: 20,000 due deliveries of one
      // endpoint (the planner's statistics as they would be), one of another, a few idle endpoints.
      hanging = (await insertWebhookEndpoint(database.db, { url: 'https://hanging.example/in' })).id;
      const healthy = await insertWebhookEndpoint(database.db, { url: 'https://healthy.example/in' });
      for (let i = 0; i < 5; i++) await insertWebhookEndpoint(database.db, { url: `https://idle-${i}.example/in` });
      const numbers =
        dialect === 'sqlite'
          ? sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000) select i from n)`
          : sql`(select generate_series(1, 20000) as i)`;
      await sql`insert into webhook_deliveries (endpoint_id, message_id, event_type, payload, state, attempts, next_attempt_at, created_at)
        select ${hanging}, 'evt_' || i, 'pet.created', '{}', case when i % 4 = 0 then 'succeeded' else 'pending' end, 0, 1000 + i, 1 from ${numbers} as numbers`.execute(
        database.db,
      );
      await sql`insert into webhook_deliveries (endpoint_id, message_id, event_type, payload, state, attempts, next_attempt_at, created_at)
        values (${healthy.id}, 'evt_healthy', 'pet.created', '{}', 'pending', 0, ${Date.now() - 10}, 1)`.execute(database.db);
      // This store's tables only: a bare ANALYZE on PostgreSQL reads every schema of the database, the other test files' too.
      await (dialect === 'sqlite' ? sql`analyze` : sql`analyze webhook_deliveries, webhook_endpoints`).execute(database.db);
    });
    after(() => database.drop());

    const planOf = async (query: { sql: string; parameters: readonly unknown[] }) => {
      const prefix = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
      return result.rows.map((row) => row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row)).join('\n');
    };
    /** The deliveries are sought per endpoint in the new index, the endpoints first; never scanned, never walked in due order across endpoints. */
    const assertPerEndpoint = (plan: string) => {
      if (dialect === 'sqlite') {
        assert.match(plan, /SCAN e\b/, plan);
        assert.match(plan, /CORRELATED LIST SUBQUERY/, plan);
        assert.match(plan, /SEARCH d USING (COVERING )?INDEX webhook_deliveries_endpoint_due_idx \(endpoint_id=\? AND next_attempt_at<\?\)/, plan);
        assert.doesNotMatch(plan, /SCAN (webhook_deliveries|d|c)\b/, plan);
      } else {
        assert.match(
          plan,
          /Nested Loop[\s\S]*Seq Scan on webhook_endpoints e[\s\S]*Index Scan using webhook_deliveries_endpoint_due_idx on webhook_deliveries d\w*\s[^\n]*\n\s*Index Cond: \(\(endpoint_id = e\.id\)/,
          plan,
        );
        assert.doesNotMatch(plan, /Seq Scan on webhook_deliveries/, plan);
      }
      assert.doesNotMatch(plan, /webhook_deliveries_due_idx/, plan);
    };
    const filter = () => ({ now: Date.now(), skipEndpoints: [hanging] });

    it("Attack: a claim with a hanging endpoint's backlog left out > seeks each other endpoint's soonest due in its index, never reads the backlog", async () => {
      const plan = await planOf(claimStatement(database.db, { ...filter(), owner: 'plan', leaseMs: 60_000, limit: 100, perEndpoint: 32 }).compile());
      assertPerEndpoint(plan);
      if (dialect === 'postgres') {
        // The hanging endpoint is left out before its deliveries are sought.
        assert.match(plan, /Seq Scan on webhook_endpoints e\s[^\n]*\n\s*Filter: \(\(id <> ALL/, plan);
        // Locked as found, per endpoint; then updated by primary key, never by a hash of the table.
        assert.match(plan, /LockRows[\s\S]*Index Scan using webhook_deliveries_endpoint_due_idx/, plan);
        assert.match(plan, /Index Scan using webhook_deliveries_pkey on webhook_deliveries\s[^\n]*\n\s*Index Cond: \(id = ANY/, plan);
      } else {
        assert.match(plan, /SEARCH webhook_deliveries USING INTEGER PRIMARY KEY \(rowid=\?\)/, plan);
      }
    });

    it('Attack: the look for due deliveries every poll > one row of each endpoint at most, the hanging one left out', async () => {
      assertPerEndpoint(await planOf(anyDueStatement(database.db, filter()).compile(database.db)));
    });

    it('the due deliveries gauge > counts per enabled endpoint in the index', async () => {
      const plan = await planOf(countDueStatement(database.db, Date.now(), 100_000).compile(database.db));
      if (dialect === 'sqlite') assertPerEndpoint(plan);
      else {
        assert.match(plan, /Seq Scan on webhook_endpoints e[\s\S]*webhook_deliveries_endpoint_due_idx[\s\S]*Index Cond: \(\(endpoint_id = e\.id\)/, plan);
        assert.doesNotMatch(plan, /Seq Scan on webhook_deliveries/, plan);
      }
    });
  });
}
