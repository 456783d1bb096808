/**
 * Fresh databases for tests: a new SQLite file in a temporary folder, and, when
 * TEST_DATABASE_URL is set, a new PostgreSQL schema, so no test ever sees another's rows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestOptions } from 'node:test';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import type { DialectName } from '../../src/db/database-url.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** The dialects every component test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** Every dialect a dual-dialect suite is written for; `describeOnDialect` runs or skips each. */
export const ALL_DIALECTS: DialectName[] = ['sqlite', 'postgres'];

/** What a test that needs PostgreSQL prints when skipped; docs/testing.md, "Running the tests", quotes it. */
export const POSTGRES_SKIP_REASON = 'needs PostgreSQL: TEST_DATABASE_URL is not set';

/** Why tests that need PostgreSQL cannot run here; undefined when they can. */
export const NO_POSTGRES = process.env.TEST_DATABASE_URL ? undefined : POSTGRES_SKIP_REASON;

/**
 * A suite that needs PostgreSQL. Without it, the suite shows as one skipped test: node:test
 * counts the tests of a skipped `describe` as nothing at all, so the summary said "skipped 0"
 * and a run without PostgreSQL looked complete.
 */
export function describeOnPostgres(name: string, options: TestOptions, body: () => void): void {
  if (NO_POSTGRES) it(name, { skip: NO_POSTGRES }, () => {});
  else describe(name, options, body);
}

/** A suite on one dialect: always on SQLite, on PostgreSQL as `describeOnPostgres`. */
export function describeOnDialect(dialect: DialectName, name: string, options: TestOptions, body: () => void): void {
  if (dialect === 'postgres') describeOnPostgres(name, options, body);
  else describe(name, options, body);
}

/**
 * A migration's suite, once per dialect: its tests share one empty database (no migration
 * applied yet), opened before them and removed after them. `empty.db` is valid inside the tests.
 */
export function describeMigration(
  migration: string,
  options: { poolMax?: number },
  body: (dialect: DialectName, empty: { readonly db: Kysely<Database> }) => void,
): void {
  for (const dialect of ALL_DIALECTS) {
    describeOnDialect(dialect, `migration ${migration} on ${dialect}`, {}, () => {
      let place: { url: string; remove(): Promise<void> } | undefined;
      let handle: DbHandle | undefined;
      before(async () => {
        place = await createEmptyDatabaseUrl(dialect);
        handle = createDb(place.url, options);
      });
      after(async () => {
        await handle?.close();
        await place?.remove();
      });
      body(dialect, {
        get db() {
          if (!handle) throw new Error('empty.db is read inside a test, once the suite has started');
          return handle.db;
        },
      });
    });
  }
}

export interface TestDatabase extends DbHandle {
  /** A DATABASE_URL that reaches the same data, for child processes. */
  url: string;
  /** Closes the connection and removes the data. */
  drop(): Promise<void>;
}

export interface ReopenableTestDatabase extends TestDatabase {
  /**
   * Runs `work` with this process's connections closed, then opens them again (`db` is the new
   * one): `import` refuses a SQLite store another process has open, this one included.
   */
  whileClosed<T>(work: () => Promise<T>): Promise<T>;
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

export async function createTestDatabase(dialect: DialectName, options: { statementTimeoutMs?: number } = {}): Promise<ReopenableTestDatabase> {
  const place = await createEmptyDatabaseUrl(dialect);
  const open = () => createDb(place.url, { poolMax: 5, statementTimeoutMs: options.statementTimeoutMs ?? 5000 });
  // Migrated without the test's statement timeout: the migrations wait for Kysely's lock, one per
  // PostgreSQL database, which the files running beside this one take too.
  const migrating = createDb(place.url, { poolMax: 1, unlimitedStatements: true });
  try {
    await migrateToLatest(migrating.db);
  } finally {
    await migrating.close();
  }
  let handle = open();
  return {
    get db() {
      return handle.db;
    },
    dialect: handle.dialect,
    location: handle.location,
    close: () => handle.close(),
    get poolStats() {
      return handle.poolStats;
    },
    url: place.url,
    async drop() {
      await handle.close();
      await place.remove();
    },
    async whileClosed(work) {
      await handle.close();
      try {
        return await work();
      } finally {
        handle = open();
      }
    },
  };
}

/**
 * A whole PostgreSQL database of its own, migrated, for tests about what the rest of the cluster
 * does to it (transactions of other databases, of other roles): no other suite's transaction is
 * ever in it. With `owner`, a role made for it, without any privilege beyond owning it, connects.
 */
export async function createScratchDatabase(
  options: { owner?: boolean; statementTimeoutMs?: number } = {},
): Promise<TestDatabase & { name: string; owner?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `animal_store_t_${randomBytes(6).toString('hex')}`;
  const owner = options.owner ? name : undefined;
  await withAdmin(adminUrl, async (client) => {
    if (owner) await client.query(`create role ${client.escapeIdentifier(owner)} login`);
    await client.query(`create database ${client.escapeIdentifier(name)}${owner ? ` owner ${client.escapeIdentifier(owner)}` : ''}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (owner) url.username = owner;
  const handle = createDb(url.toString(), { poolMax: 5, statementTimeoutMs: options.statementTimeoutMs ?? 5000 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    name,
    ...(owner ? { owner } : {}),
    url: url.toString(),
    async drop() {
      await handle.close();
      await withAdmin(adminUrl, async (client) => {
        await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
        if (owner) await client.query(`drop role if exists ${client.escapeIdentifier(owner)}`);
      });
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
