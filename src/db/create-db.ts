/**
 * The only module that knows which database dialect runs. Everything else receives a
 * `Kysely<Database>` and writes one set of queries for both SQLite and PostgreSQL.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from './database.js';
import { CONFIG_DEFAULTS } from '../config-defaults.js';
import { ColumnNames } from './column-names.js';
import { DATABASE_URL_FORMS, dialectOf, locationOf, redactPassword, sqlitePathOf, type DialectName } from './database-url.js';
import { PostgresPoolDialect } from './postgres/dialect.js';
import { readDirect } from './postgres/direct-read.js';
import { PostgresPoolDriver } from './postgres/driver.js';
import { createPostgresPool, fillPool, statsOf, type PoolStats } from './postgres/pool.js';
import { CommitListeners } from './commit-listeners.js';
import { attachEngine } from './engine.js';
import { createGroupCommit } from './sqlite/group-commit.js';
import { holdExclusively } from './sqlite/exclusive-open.js';
import { LockWaitingSqliteDialect } from './sqlite/lock-wait.js';
import { sqliteConnection } from './sqlite/statements.js';

export interface DbOptions {
  /** Largest number of pooled PostgreSQL connections (SQLite uses a single connection). */
  poolMax?: number;
  /** Longest a statement may run, or wait for a lock, before it fails. */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: statements without a time limit, on the server or here (only the wait for a
   * connection keeps `statementTimeoutMs`): for the migrations, which may run minutes on a large
   * store and wait for another instance's (migrate.ts `migrateStore`).
   */
  unlimitedStatements?: boolean;
  /**
   * SQLite: the file held so that no other process has it open while the handle lives (a command
   * that must not run beside a service); throws StoreInUse when one has. PostgreSQL: no effect.
   */
  sqliteExclusive?: boolean;
}

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, with any password hidden: safe to log. */
  location: string;
  close(): Promise<void>;
  /** PostgreSQL only: the connections now, read by /metrics. */
  poolStats?: () => PoolStats;
  /** PostgreSQL only: opens the pool's every connection and keeps them; answers why one could not open, if one could not (postgres/pool.ts). */
  fillPool?: () => Promise<Error | undefined>;
}

export type { PoolStats };

/**
 * The longest one database operation may wait on PostgreSQL, connection included: the statement
 * timeout, which the server enforces, plus a second for its answer (or its cancellation) to
 * arrive; past that the link itself is taken to be stalled.
 */
export function operationBudgetMs(statementTimeoutMs: number): number {
  return statementTimeoutMs + 1000;
}

export function createDb(url: string, options: DbOptions = {}): DbHandle {
  const dialect = dialectOf(url);
  const statementTimeoutMs = options.statementTimeoutMs ?? CONFIG_DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS;
  const camelCase = new ColumnNames();
  const plugins = [camelCase];

  if (dialect === 'postgres') {
    // Statement timeout, idle-in-transaction timeout and the one budget per operation:
    // postgres/pool.ts, postgres/driver.ts, postgres/direct-read.ts and postgres/deadline.ts.
    const max = options.poolMax ?? CONFIG_DEFAULTS.DATABASE_POOL_MAX;
    const connectMs = operationBudgetMs(statementTimeoutMs);
    const budgetMs = options.unlimitedStatements ? Infinity : connectMs;
    const serverTimeoutMs = options.unlimitedStatements ? 0 : statementTimeoutMs;
    const pool = createPostgresPool(url, {
      max,
      statementTimeoutMs: serverTimeoutMs,
      idleInTransactionMs: statementTimeoutMs,
      connectMs,
    });
    const driver = new PostgresPoolDriver(pool, budgetMs);
    const db = new Kysely<Database>({ dialect: new PostgresPoolDialect(driver), plugins });
    attachEngine({
      db,
      commits: new CommitListeners(),
      // Compiled reads skip Kysely's way; their rows are named as the plugin names them (compiled-query.ts).
      directRead: async (sql, parameters) => {
        // Rows as arrays: pg builds no object of its own that would only be copied under the plugin's names.
        const { columns, rows } = await readDirect(pool, budgetMs, sql, parameters);
        return camelCase.rowsNamed(columns, rows);
      },
    });
    return {
      db,
      dialect,
      location: locationOf(url),
      close: () => db.destroy(),
      poolStats: () => statsOf(pool, max),
      fillPool: () => fillPool(pool),
    };
  }

  if (dialect === 'sqlite') {
    const path = sqlitePathOf(url);
    if (path !== ':memory:') createOwnerOnly(path);
    // Opening may wait for another process's lock the blocking way: nothing is served yet.
    const sqlite = options.sqliteExclusive ? holdExclusively(path) : new SQLite(path, { timeout: statementTimeoutMs });
    // WAL lets readers run while one writer writes. FULL syncs the log at every commit, so a
    // write that was answered survives a power loss, not only a crash of the process; group
    // commit (sqlite/group-commit.ts) shares that sync among the writes that arrive together.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // From here on a locked file fails at once, and the dialect waits on timers instead, so a
    // lock held elsewhere never blocks the event loop (sqlite/lock-wait.ts).
    sqlite.pragma('busy_timeout = 0');
    const connection = sqliteConnection(sqlite);
    const db = new Kysely<Database>({ dialect: new LockWaitingSqliteDialect({ database: connection.database, lockWaitMs: statementTimeoutMs }), plugins });
    attachEngine({
      db,
      commits: new CommitListeners(),
      groupCommit: createGroupCommit(db),
      dataVersion: connection.version,
      // Reads compiled once run at once, their rows named as the plugin names them (compiled-query.ts).
      directRead: (sql, parameters) => connection.readNow(sql, parameters)?.map((row) => camelCase.rowNamed(row as Record<string, unknown>)),
    });
    const close = async () => {
      await db.destroy();
      // Kysely's destroy closes nothing when no query ran: the file (and its shared lock) would stay open.
      if (sqlite.open) sqlite.close();
    };
    return { db, dialect, location: locationOf(url), close };
  }

  throw new Error(`DATABASE_URL must be ${DATABASE_URL_FORMS} (got ${JSON.stringify(redactPassword(url))})`);
}

/**
 * The data and the key hashes are no other local user's business: a missing folder is made 0700
 * and a missing database file 0600 before SQLite opens it; SQLite gives its -wal and -shm files
 * the database file's mode. Existing files and folders keep the mode their owner chose.
 */
function createOwnerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}

/** Opens one connection for a short piece of work (a CLI command, a start-up chore) and closes it after. */
export async function withDb<T>(
  url: string,
  statementTimeoutMs: number,
  work: (db: Kysely<Database>) => Promise<T>,
  options: Pick<DbOptions, 'unlimitedStatements' | 'sqliteExclusive'> = {},
): Promise<T> {
  const handle = createDb(url, { poolMax: 1, statementTimeoutMs, ...options });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}
