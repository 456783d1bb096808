/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Adds the idempotency keys: one row per (API key, Idempotency-Key), holding the
 * request's fingerprint, whether it is still running, and the answer to replay once it is done.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'bigint', (col) => col.notNull())
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('in_progress', 'done')`))
    // Who reserved it: only that request may store the answer or release the reservation.
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('locked_until', 'bigint', (col) => col.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    // The unique constraint that makes a reservation one atomic insert-if-absent.
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['api_key_id', 'idempotency_key'])
    .execute();
  // The purge walks expired rows in small batches.
  await db.schema.createIndex('idempotency_keys_expires_at_idx').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
