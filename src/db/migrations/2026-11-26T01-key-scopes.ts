/**
 * Frozen in time (imports nothing from the application). Keys get the scopes they may use,
 * space-separated. Keys made before scopes existed could do everything, so they keep every
 * scope of this version: the default fills them in. The application always writes the column.
 */
import type { Kysely } from 'kysely';

const ALL_SCOPES_AT_THIS_MIGRATION = 'pets:read pets:write orders:read orders:write';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('scopes', 'text', (col) => col.notNull().defaultTo(ALL_SCOPES_AT_THIS_MIGRATION))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
}
