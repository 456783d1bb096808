/**
 * What export and import do differently on SQLite and PostgreSQL, in one place: the read snapshot,
 * where the id high-water marks live, inserting rows with their ids, and keeping the event
 * triggers quiet while an import loads rows that already have their events.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { numberWaitingEvents } from '../events/events.sequencer.js';
import { lockStoreExclusively } from '../db/postgres/store-lock.js';

/**
 * Runs `work` on one connection inside one read-only snapshot. PostgreSQL: REPEATABLE READ READ
 * ONLY, without the pool's statement and idle limits (a slow reader of the output leaves the
 * transaction idle between pages). SQLite: a plain deferred BEGIN (not the service's BEGIN
 * IMMEDIATE, which would take the write lock and stop every writer); the first select fixes the
 * snapshot, writers go on in the WAL. While it is open the WAL cannot be checkpointed past it, so
 * the -wal file grows with what is written during a long export and shrinks at the next checkpoint.
 */
export async function inReadSnapshot<T>(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    if (isPostgres(db)) {
      await sql`begin isolation level repeatable read read only`.execute(conn);
      await sql`set local statement_timeout = 0`.execute(conn);
      await sql`set local idle_in_transaction_session_timeout = 0`.execute(conn);
    } else await sql`begin`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

export async function tableExists(db: Kysely<Database>, table: string): Promise<boolean> {
  const { rows } = isPostgres(db)
    ? await sql<{ found: number }>`select 1 as found from information_schema.tables where table_schema = current_schema() and table_name = ${table}`.execute(db)
    : await sql<{ found: number }>`select 1 as found from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return rows.length > 0;
}

/**
 * The largest id each table's generator handed out, 0 when none: a PostgreSQL identity's sequence
 * (never rolled back, so it may be above every stored id), SQLite's AUTOINCREMENT counter.
 */
export async function readHighWaterMarks(db: Kysely<Database>, tables: readonly string[]): Promise<Record<string, number>> {
  const marks: Record<string, number> = {};
  if (isPostgres(db)) {
    for (const table of tables) {
      const { rows } = await sql<{
        mark: string | number | null;
      }>`select pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass) as mark`.execute(db);
      marks[table] = Number(rows[0]?.mark ?? 0);
    }
    return marks;
  }
  const { rows } = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(db);
  for (const table of tables) marks[table] = Number(rows.find((row) => row.name === table)?.seq ?? 0);
  return marks;
}

/**
 * Gives the imported events that came without a position (committed as a PostgreSQL export began)
 * the next positions, in id order, above every position imported or purged: what PostgreSQL's
 * sequencer does (events.sequencer.ts), and on SQLite, whose trigger would have used their ids.
 */
export async function numberImportedEvents(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) return numberWaitingEvents(db);
  const { rows } = await sql<{ id: number }>`select id from events where position is null order by id`.execute(db);
  if (rows.length === 0) return;
  const { rows: top } = await sql<{ position: number }>`select max(coalesce((select max(position) from events), 0),
    (select purged_position from events_retention where singleton = 1)) as position`.execute(db);
  let position = Number(top[0]?.position ?? 0);
  for (const { id } of rows) await sql`update events set position = ${++position} where id = ${id}`.execute(db);
}

/**
 * Keeps every service off the store until the transaction ends, or answers false when one serves
 * it. PostgreSQL: the store's advisory lock, which each serving process holds shared
 * (db/postgres/store-lock.ts). SQLite: the import's connection holds the file exclusively from
 * its opening (transfer.command.ts), so nothing is left to claim.
 */
export async function claimStore(db: Kysely<Database>): Promise<boolean> {
  return isPostgres(db) ? lockStoreExclusively(db) : true;
}

/** PostgreSQL's SQLSTATE when `lock_timeout` passes. */
export const LOCK_NOT_AVAILABLE = '55P03';
export const LOCK_WAIT_SECONDS = 15;

/**
 * Keeps every other writer out of `tables` until the transaction ends, so the emptiness check and
 * the rows loaded after it see one state: a service writing to the target meanwhile waits, and
 * once the import commits it finds the whole store (its new ids above the imported ones). Readers
 * go on. SQLite: the transaction's BEGIN IMMEDIATE holds the write lock already.
 */
export async function lockTables(db: Kysely<Database>, tables: readonly string[]): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(`set local lock_timeout = '${LOCK_WAIT_SECONDS}s'`).execute(db);
  await sql`lock table ${sql.join(tables.map((table) => sql.table(table)))} in exclusive mode`.execute(db);
  await sql`set local lock_timeout = 0`.execute(db);
}

/** New ids start above `mark` (and above every stored id, which the database sees to by itself). */
export async function raiseHighWaterMark(db: Kysely<Database>, table: string, mark: number): Promise<void> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ top: number | string | null }>`select max(id) as top from ${sql.table(table)}`.execute(db);
    const next = Math.max(mark, Number(rows[0]?.top ?? 0));
    if (next > 0) await sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${next}, true)`.execute(db);
    return;
  }
  // Rows inserted with their ids already raised the counter to the largest of them; a row that did
  // not exist yet (nothing inserted) is made.
  const updated = await sql`update sqlite_sequence set seq = max(seq, ${mark}) where name = ${table}`.execute(db);
  if (Number(updated.numAffectedRows ?? 0) === 0 && mark > 0) await sql`insert into sqlite_sequence (name, seq) values (${table}, ${mark})`.execute(db);
}

/**
 * Inserts rows with the ids they have. PostgreSQL: the identities are GENERATED ALWAYS (pets and
 * orders BY DEFAULT), so the ids given need OVERRIDING SYSTEM VALUE. `upsertOn`: the rows a
 * migration made already (the singletons) or the service may have made (its secrets) take the
 * imported values.
 */
export async function insertRows(
  db: Kysely<Database>,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  upsertOn?: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  const overriding = isPostgres(db) && columns.includes('id') && upsertOn === undefined ? sql` overriding system value` : sql``;
  const values = sql.join(rows.map((row) => sql`(${sql.join(row)})`));
  const conflict =
    upsertOn === undefined
      ? sql``
      : sql` on conflict (${sql.raw(upsertOn.join(', '))}) do update set ${sql.raw(
          columns
            .filter((column) => !upsertOn.includes(column))
            .map((column) => `${column} = excluded.${column}`)
            .join(', '),
        )}`;
  await sql`insert into ${sql.table(table)} (${sql.raw(columns.join(', '))})${overriding} values ${values}${conflict}`.execute(db);
}

/**
 * Runs `work` (inside the import's transaction) with the triggers that record events for pets and
 * orders switched off, then on again: the imported rows bring their events with them, and new ones
 * would repeat them in the feed and in webhooks.
 *
 * PostgreSQL: ALTER TABLE … DISABLE TRIGGER USER, which the tables' owner may run (the role that
 * migrated them), unlike `session_replication_role`, which needs a superuser. It is transactional:
 * it takes the tables' exclusive lock until commit, so no other session ever writes a pet without
 * its event (it waits; the target is empty and no service should write to it meanwhile).
 * On SQLite the trigger that gives an event its position (its id) goes too: an event that comes
 * without one is numbered after every other (numberImportedEvents), never at an id that another
 * event's position may already hold.
 * SQLite has no way to switch a trigger off: the triggers are dropped and made again from their
 * own text in sqlite_master, in the same transaction, so a failed import leaves them as they were
 * and no other connection sees the tables without them (the transaction holds the write lock).
 */
export async function withoutEventTriggers<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (isPostgres(db)) {
    for (const table of ['pets', 'orders']) await sql`alter table ${sql.table(table)} disable trigger user`.execute(db);
    const result = await work();
    for (const table of ['pets', 'orders']) await sql`alter table ${sql.table(table)} enable trigger user`.execute(db);
    return result;
  }
  const { rows: triggers } = await sql<{
    name: string;
    sql: string;
  }>`select name, sql from sqlite_master where type = 'trigger' and tbl_name in ('pets', 'orders', 'events') order by name`.execute(db);
  for (const trigger of triggers) await sql`drop trigger ${sql.id(trigger.name)}`.execute(db);
  const result = await work();
  for (const trigger of triggers) await sql.raw(trigger.sql).execute(db);
  return result;
}
