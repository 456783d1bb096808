/**
 * Fresh databases for tests: a new SQLite file in a temporary folder, and, when
 * TEST_DATABASE_URL is set, a new PostgreSQL schema, so no test ever sees another's rows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDb, type DbHandle, type DialectName } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** The dialects every component test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DbHandle {
  /** A DATABASE_URL that reaches the same data, for child processes. */
  url: string;
  /** Closes the connection and removes the data. */
  drop(): Promise<void>;
}

/** Makes an empty place for data: a SQLite file path or a PostgreSQL schema, as a DATABASE_URL. */
export async function createEmptyDatabaseUrl(dialect: DialectName): Promise<{ url: string; remove(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-test-'));
    return { url: `sqlite:${join(dir, 'test.db')}`, remove: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create schema ${client.escapeIdentifier(schema)}`));
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    remove: async () => {
      await withAdmin(adminUrl, (client) => client.query(`drop schema if exists ${client.escapeIdentifier(schema)} cascade`));
    },
  };
}

export async function createTestDatabase(dialect: DialectName, options: { statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const place = await createEmptyDatabaseUrl(dialect);
  const handle = createDb(place.url, { poolMax: 5, statementTimeoutMs: options.statementTimeoutMs ?? 5000 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url: place.url,
    async drop() {
      await handle.close();
      await place.remove();
    },
  };
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
