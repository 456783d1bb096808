/**
 * Frozen in time (imports nothing from the application). A key's last use, in epoch
 * milliseconds, written in batches (keys/key-usage.ts); null for a key never used since.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
}
