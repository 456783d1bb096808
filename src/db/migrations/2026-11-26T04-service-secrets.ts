/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Secrets the service makes for itself (the cursor signing secret when
 * CURSOR_SECRET is unset) live with the data, so every instance on the database shares them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_secrets').execute();
}
