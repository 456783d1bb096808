/**
 * The few places where SQLite and PostgreSQL need different statements, each behind one named
 * helper, so queries elsewhere stay one set. Only this module and createDb look at the dialect.
 */
import { type AliasedRawBuilder, type Kysely, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import { groupCommitOf } from './group-commit.js';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The one column of a one-row `WITH` query put before an `INSERT … SELECT … FROM` it, so that
 * the insert draws its ids only once no other insert of the same `name` is still committing:
 * ids then become visible in increasing order. On PostgreSQL the row waits for a transaction-
 * scoped advisory lock, held until the statement (or its transaction) commits; SQLite lets one
 * writer at a time into the file anyway, so there it is a constant. A single statement holds
 * the lock for the least time (a separate transaction around it cut insert throughput by ~60%).
 */
export function waitForInsertTurn(db: Kysely<any>, name: string): AliasedRawBuilder<unknown, 'turn'> {
  return (isPostgres(db) ? sql`pg_advisory_xact_lock(hashtext(${name}))` : sql`1`).as('turn');
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
 * (db/sqlite-lock-wait.ts), which takes the file's write lock at once, waiting for it on timers;
 * a plain `BEGIN` would start as a reader, and two processes that both read, then both try to
 * write, cannot both upgrade. On SQLite the transactions that arrive together are one group
 * commit (group-commit.ts): each runs in its own savepoint of one transaction, one sync for all.
 */
export async function writeTransaction<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const group = groupCommitOf(db);
  return group ? group.run(work as (trx: Kysely<any>) => Promise<T>) : db.transaction().execute(work);
}

/**
 * A write of one statement. On PostgreSQL it runs as it is, its own transaction in one round
 * trip. On SQLite it joins the group commit as `writeTransaction` does, so its sync of the
 * file is shared with the writes that arrive with it (group-commit.ts).
 */
export async function singleWrite<DB, T>(db: Kysely<DB>, write: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const group = groupCommitOf(db);
  return group ? group.run(write as (trx: Kysely<any>) => Promise<T>) : write(db);
}

/**
 * A select that locks the rows it reads until the transaction ends (`FOR UPDATE`) on PostgreSQL.
 * SQLite has no row locks and no such clause: inside `writeTransaction` the whole file is
 * already locked for writing, which holds the rows as well.
 */
export function forUpdate<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, query: QB): QB {
  return isPostgres(db) ? (query.forUpdate() as QB) : query;
}
