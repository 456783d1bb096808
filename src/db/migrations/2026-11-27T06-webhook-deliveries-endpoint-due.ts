/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Indexes the pending webhook deliveries by endpoint, then when they are due
 * (`endpoint_id`, `next_attempt_at`, `id` where pending), for the dispatcher's claims
 * (src/webhooks/webhook-claims.repository.ts), which go endpoint by endpoint: with the index of due
 * deliveries of every endpoint in due order (webhook_deliveries_due_idx), each claim and each poll
 * read the whole due backlog of an endpoint left out of the claim before the others'. That index
 * has no reader left and is dropped; `down` makes it again.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_endpoint_due_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'next_attempt_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.dropIndex('webhook_deliveries_due_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.dropIndex('webhook_deliveries_endpoint_due_idx').execute();
}
