/**
 * The few places where SQLite and PostgreSQL need different statements, each behind one named
 * helper, so queries elsewhere stay one set. Only this module and createDb look at the dialect.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Within a transaction, waits until no other transaction holding the same `name` is running,
 * and holds it until commit. On PostgreSQL that is a transaction-scoped advisory lock; SQLite
 * already lets one writer at a time into the file, so there it does nothing.
 */
export async function serializeTransactions(trx: Kysely<any>, name: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
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
