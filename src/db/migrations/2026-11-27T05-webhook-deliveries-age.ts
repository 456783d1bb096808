/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Indexes webhook deliveries by age (`created_at`, then `id`), for their retention
 * (src/webhooks/webhook-deliveries.retention.ts): each minute every process looks for the
 * deliveries created before the cutoff, and without this index each look read the whole table.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_created_idx').execute();
}
