/**
 * Frozen in time: adds the version each pet's ETag is made from. Every existing pet starts at
 * version 1, as a new one does, so the insert needs no change; each update adds one.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('pets')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pets').dropColumn('version').execute();
}
