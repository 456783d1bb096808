/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Adds `events_retention`, the feed's retention: one row holding the feed position
 * (txn, id) of the newest event purged, (0, 0) before any purge. Each purge batch deletes a prefix
 * of the feed and moves this row in the same transaction, so a cursor below it is one whose next
 * events were purged (410 `cursor_expired`), and a cursor at or above it missed nothing, however
 * old it is. The row is also what purges on several instances lock to take turns.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events_retention')
    // One row, ever: the check makes a second one impossible.
    .addColumn('singleton', 'integer', (col) => col.primaryKey().check(sql`singleton = 1`))
    .addColumn('purged_txn', 'bigint', (col) => col.notNull())
    .addColumn('purged_id', 'bigint', (col) => col.notNull())
    .execute();
  await sql`insert into events_retention (singleton, purged_txn, purged_id) values (1, 0, 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events_retention').execute();
}
