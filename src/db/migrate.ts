/**
 * Runs the migrations. Kysely's Migrator takes a lock (an advisory lock on PostgreSQL), so
 * several instances starting at once apply each migration exactly once.
 */
import { type Kysely, type Migration, type MigrationResultSet, Migrator, PostgresAdapter, sql } from 'kysely';
import * as initial from './migrations/2026-11-25T00-initial.js';

// Listed by hand rather than read from a folder, so the compiled package needs no file-system lookup.
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-25T00-initial': initial,
};

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrationTableSchema = await postgresSchemaOf(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? '(unknown)'} failed: ${String(result.error)}`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * On PostgreSQL, the schema the connection writes to (the first of its search_path). Kysely
 * looks for its bookkeeping tables in every schema unless told one, so a database holding
 * several stores (one schema each) would otherwise see another store's migrations.
 */
async function postgresSchemaOf(db: Kysely<any>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}
