/**
 * The few places where SQLite and PostgreSQL need different statements, each behind one named
 * helper, so queries elsewhere stay one set.
 */
import { type Kysely, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import { announceCommit } from './commit-listeners.js';
import { engineOf } from './engine.js';

/** Whether the database is PostgreSQL: for the helpers here, and for what runs on PostgreSQL only (the events' sequencer). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The list of an `id IN (…)` filter as one statement parameter (idListParameter makes it). */
export type IdListParameter = string | readonly number[];

/**
 * `id` is one of a list of ids, the list bound as one parameter: a JSON array read by
 * `json_each` on SQLite, an array on PostgreSQL. One `?` per id made a statement per list length
 * (1 to 100) for each shape of a listing; SQLite keeps each prepared statement's memory outside
 * the JavaScript heap, and RSS was seen to grow from 134 to 889 MB in 30 s of lists
 * of varied lengths. Both databases look each id up in the primary key.
 */
export function idIn(db: Kysely<any>, ids: IdListParameter, column = 'id') {
  return isPostgres(db) ? sql<boolean>`${sql.ref(column)} = any(${ids}::bigint[])` : sql<boolean>`${sql.ref(column)} in (select value from json_each(${ids}))`;
}

export function idListParameter(db: Kysely<any>, ids: readonly number[]): IdListParameter {
  return isPostgres(db) ? ids : JSON.stringify(ids);
}

/**
 * The number a JSON object (`{"<id>": number, …}`, bound as one parameter) gives the id in
 * `column`: one statement text for a map of any size, as `idIn` for a list. (Read as text first, then
 * cast: the parameter is a JSON text on both databases.)
 */
export function numberOfId(db: Kysely<any>, numbers: string, column = 'id') {
  return isPostgres(db)
    ? sql<number>`(${numbers}::text::jsonb ->> ${sql.ref(column)}::text)::bigint`
    : sql<number>`json_extract(${numbers}, '$."' || ${sql.ref(column)} || '"')`;
}

/**
 * The database's clock, in epoch milliseconds: what the events' `occurred_at` is written with
 * (migration 2026-11-27T02), so times compared with it need no agreement between the clocks of
 * the service's machines and the database's.
 */
export async function databaseNowMs(db: Kysely<any>): Promise<number> {
  return Number((await sql<{ now: number }>`select ${databaseClockMs(db)} as now`.execute(db)).rows[0]!.now);
}

/**
 * The database's clock in epoch milliseconds as an SQL expression, for a time written and compared
 * in one statement whatever the clock of the machine that sends it (the webhook leases).
 */
export function databaseClockMs(db: Kysely<any>) {
  return isPostgres(db)
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast(round((julianday('now') - 2440587.5) * 86400000) as integer)`;
}

/** Whether a text column holding a JSON array of strings has `value` among them. */
export function jsonTextArrayHas(db: Kysely<any>, column: string, value: ReturnType<typeof sql.ref>) {
  return isPostgres(db)
    ? sql<boolean>`(${sql.ref(column)})::jsonb @> jsonb_build_array(${value})`
    : sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) where value = ${value})`;
}

/**
 * The PostgreSQL schema the connection writes to (the first of its search_path), or undefined
 * on SQLite. Kysely's migrator looks for its bookkeeping tables in every schema unless told
 * one, so a database holding several stores (one schema each) would see another's migrations.
 */
export async function currentSchemaOf(db: Kysely<any>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/**
 * Runs `work` in one transaction that will write, so it may read what it is about to change and
 * rely on it until commit. PostgreSQL: an ordinary READ COMMITTED transaction; `work` locks the
 * rows it depends on with `forUpdate`. SQLite: every transaction starts with `BEGIN IMMEDIATE`
 * (db/sqlite/lock-wait.ts), which takes the file's write lock at once, waiting for it on timers;
 * a plain `BEGIN` would start as a reader, and two processes that both read, then both try to
 * write, cannot both upgrade. On SQLite the transactions that arrive together are one group
 * commit (sqlite/group-commit.ts): each runs in its own savepoint of one transaction, one sync for all.
 */
export async function writeTransaction<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  // SQLite: joins the next group commit (never inside a transaction, which is its own group's member).
  const group = db.isTransaction ? undefined : engineOf(db)?.groupCommit;
  const result = await (group ? group.run(work as (trx: Kysely<any>) => Promise<T>) : db.transaction().execute(work));
  await committed(db, options);
  return result;
}

export interface WriteOptions {
  /**
   * The write changes pets or orders, whose triggers record events: it is answered once they are in
   * the feed (PostgreSQL: numbered by the sequencer, events/events.sequencer.ts; 1.5 s at most).
   */
  recordsEvents?: boolean;
}

/** The option of a write that changes pets or orders. */
export const RECORDS_EVENTS: WriteOptions = { recordsEvents: true };

/** Tells the commit's listeners (commit-listeners.ts); a write that records events waits for them. */
async function committed(db: Kysely<any>, { recordsEvents = false }: WriteOptions): Promise<void> {
  const settled = announceCommit(db, { recordsEvents });
  if (recordsEvents) await settled;
}

/**
 * A write of one statement. On PostgreSQL it runs as it is, its own transaction in one round
 * trip. On SQLite it joins the group commit as `writeTransaction` does, so its sync of the
 * file is shared with the writes that arrive with it (sqlite/group-commit.ts).
 */
export async function singleWrite<DB, T>(db: Kysely<DB>, write: (db: Kysely<DB>) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  // SQLite: joins the next group commit (never inside a transaction, which is its own group's member).
  const group = db.isTransaction ? undefined : engineOf(db)?.groupCommit;
  const result = await (group ? group.run(write as (trx: Kysely<any>) => Promise<T>) : write(db));
  await committed(db, options);
  return result;
}

/**
 * A select that locks the rows it reads until the transaction ends (`FOR UPDATE`) on PostgreSQL.
 * SQLite has no row locks and no such clause: inside `writeTransaction` the whole file is
 * already locked for writing, which holds the rows as well.
 */
export function forUpdate<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return isPostgres(db) ? (query.forUpdate() as QB) : query;
}

/**
 * `forUpdate` with PostgreSQL's weaker `FOR NO KEY UPDATE`: the lock an UPDATE that changes no key
 * takes anyway, taken earlier to fix the order of a transaction's locks. Unlike `FOR UPDATE` it
 * lets inserts that reference the row (their foreign key check) go on. SQLite: nothing to add.
 */
export function forNoKeyUpdate<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return isPostgres(db) ? (query.forNoKeyUpdate() as QB) : query;
}
