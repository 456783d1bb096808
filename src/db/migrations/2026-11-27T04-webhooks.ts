/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Adds webhooks: the store's endpoints, the deliveries of events to
 * them with each attempt, and the position up to which the feed's events were fanned out into
 * deliveries. Keys that hold every scope of the previous release get the two webhook scopes,
 * as a key without `--scope` has every scope.
 *
 * - `webhook_endpoints.secret` is the signing secret (`whsec_…`). Unlike an API key it cannot be
 *   stored hashed: the service signs with it. `previous_secret` signs too until
 *   `previous_secret_expires_at` (a rotation's 24 hours).
 * - `allowed_types` is what the creating key could read when the endpoint was made (a JSON array of
 *   event types); the endpoint keeps it whatever becomes of the key.
 * - A delivery is one message (an event, or a `webhook.test`) to one endpoint: `payload` is the body
 *   exactly as sent, so every retry sends the same bytes under the same `message_id` (the
 *   `webhook-id` header). Deleting an endpoint deletes its deliveries and their attempts.
 * - `webhook_dispatch` is one row: the feed position (txn, id) whose events have been fanned out.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** As in the initial migration (copied, so this file stays frozen): ids never handed out twice. */
function neverReusedIdColumn(db: Kysely<any>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? ({ type: 'bigint', build: (col: any) => col.primaryKey().generatedAlwaysAsIdentity() } as const)
    : ({ type: 'integer', build: (col: any) => col.primaryKey().autoIncrement() } as const);
}

const ALL_SCOPES_BEFORE = 'pets:read pets:write orders:read orders:write';
const ALL_SCOPES_NOW = `${ALL_SCOPES_BEFORE} webhooks:read webhooks:write`;

export async function up(db: Kysely<any>): Promise<void> {
  const id = neverReusedIdColumn(db);
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', id.type, id.build)
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('allowed_types', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('enabled', 'disabled')`))
    .addColumn('disabled_reason', 'text')
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('created_by_key_id', 'bigint')
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id.type, id.build)
    .addColumn('endpoint_id', 'bigint', (col) => col.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (col) => col.notNull())
    .addColumn('event_id', 'bigint')
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('pending', 'succeeded', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('last_attempt_at', 'bigint')
    .execute();
  // What the dispatcher claims: the pending deliveries that are due, soonest first.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  // An endpoint's deliveries, newest first, and the deletes of an endpoint's cascade.
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', id.type, id.build)
    .addColumn('delivery_id', 'bigint', (col) => col.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'bigint', (col) => col.notNull())
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('outcome', 'text', (col) => col.notNull().check(sql`outcome in ('succeeded', 'failed')`))
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'id']).execute();

  await db.schema
    .createTable('webhook_dispatch')
    // One row, ever: the check makes a second one impossible.
    .addColumn('singleton', 'integer', (col) => col.primaryKey().check(sql`singleton = 1`))
    .addColumn('fanned_txn', 'bigint', (col) => col.notNull())
    .addColumn('fanned_id', 'bigint', (col) => col.notNull())
    .execute();
  // Endpoints receive what happens after they exist: fanning out starts at the newest event now.
  await sql`insert into webhook_dispatch (singleton, fanned_txn, fanned_id)
    select 1, coalesce(max(txn), 0), coalesce(max(id), 0) from events`.execute(db);

  await sql`update api_keys set scopes = ${ALL_SCOPES_NOW} where scopes = ${ALL_SCOPES_BEFORE}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update api_keys set scopes = ${ALL_SCOPES_BEFORE} where scopes = ${ALL_SCOPES_NOW}`.execute(db);
  await db.schema.dropTable('webhook_dispatch').execute();
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
