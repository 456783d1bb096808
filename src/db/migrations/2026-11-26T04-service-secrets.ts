/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Secrets the service makes for itself (the cursor signing secret when
 * CURSOR_SECRET is unset) live with the data, so every instance on the database shares them.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  // Made here, once, under the migration lock, so serving only ever reads it: a listing then
  // never has to write (and wait on a locked SQLite file, say) before it can answer.
  await db
    .insertInto('service_secrets')
    .values({ name: 'cursor', value: randomBytes(32).toString('base64url'), created_at: Date.now() })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_secrets').execute();
}
