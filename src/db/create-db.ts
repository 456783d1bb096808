/**
 * The only module that knows which database dialect runs. Everything else receives a
 * `Kysely<Database>` and writes one set of queries for both SQLite and PostgreSQL.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely } from 'kysely';
import type { Database } from './database.js';
import { CONFIG_DEFAULTS } from '../config-defaults.js';
import { DEADLINE_CODE, isStalePreparedStatement, startBudget } from './postgres-deadline.js';
import { PostgresConnections, type PoolStats } from './postgres-connections.js';
import { PipelinedPostgresDialect } from './postgres-driver.js';
import { registerGroupCommit } from './group-commit.js';
import { registerDirectReads } from './compiled-query.js';
import { registerDataVersion } from './data-version.js';
import { isSqliteBusy, LockWaitingSqliteDialect } from './sqlite-lock-wait.js';
import { sqliteConnection } from './sqlite-statements.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DbOptions {
  /** Largest number of pooled PostgreSQL connections (SQLite uses a single connection). */
  poolMax?: number;
  /** Longest a statement may run, or wait for a lock, before it fails. */
  statementTimeoutMs?: number;
}

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, with any password hidden: safe to log. */
  location: string;
  close(): Promise<void>;
  /** PostgreSQL only: the connections now, read by /metrics. */
  poolStats?: () => PoolStats;
}

export type { PoolStats };

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const OTHER_URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Tells which dialect a DATABASE_URL selects, or why it selects none. */
export function dialectOf(url: string): DialectName | undefined {
  if (POSTGRES_URL.test(url)) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  return OTHER_URL_SCHEME.test(url) || url === '' ? undefined : 'sqlite';
}

/** `sqlite:./a.db`, `sqlite:///abs/a.db`, `sqlite::memory:` and a plain file path all name a SQLite file. */
export function sqlitePathOf(url: string): string {
  const path = url.replace(/^sqlite:/, '').replace(/^\/\/(?=\/)/, '');
  return path === ':memory:' ? path : resolve(path);
}

/**
 * The longest one database operation may wait on PostgreSQL, connection included: the statement
 * timeout, which the server enforces, plus a second for its answer (or its cancellation) to
 * arrive; past that the link itself is taken to be stalled.
 */
export function operationBudgetMs(statementTimeoutMs: number): number {
  return statementTimeoutMs + 1000;
}

/** Kysely's CamelCasePlugin, whose naming of a row direct reads use too (compiled-query.ts). */
class ColumnNames extends CamelCasePlugin {
  rowNamed(row: Record<string, unknown>): Record<string, unknown> {
    return this.mapRow(row);
  }

  columnNamed(name: string): string {
    return this.camelCase(name);
  }
}

export function createDb(url: string, options: DbOptions = {}): DbHandle {
  const dialect = dialectOf(url);
  const statementTimeoutMs = options.statementTimeoutMs ?? CONFIG_DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS;
  const camelCase = new ColumnNames();
  const plugins = [camelCase];

  if (dialect === 'postgres') {
    // Statement timeout, idle-in-transaction timeout, the connect timeout and the one budget per
    // operation: postgres-connections.ts and postgres-deadline.ts.
    // Rows come with the plugin's names for their columns, given once per prepared statement:
    // the plugin's own pass over them changes nothing more (its naming is idempotent), and the
    // compiled reads skip it and the rest of Kysely's way (compiled-query.ts).
    const columnNamed = (name: string) => camelCase.columnNamed(name);
    const connections = new PostgresConnections(url, { max: options.poolMax ?? CONFIG_DEFAULTS.DATABASE_POOL_MAX, statementTimeoutMs, columnNamed }, parseInt8);
    const budgetMs = operationBudgetMs(statementTimeoutMs);
    const db = new Kysely<Database>({ dialect: new PipelinedPostgresDialect(connections, budgetMs), plugins });
    registerDirectReads(db, (sql, parameters) => connections.run(sql, parameters, startBudget(budgetMs)));
    const poolStats = (): PoolStats => connections.stats();
    return { db, dialect, location: locationOf(url), close: () => db.destroy(), poolStats };
  }

  if (dialect === 'sqlite') {
    const path = sqlitePathOf(url);
    if (path !== ':memory:') createOwnerOnly(path);
    // Opening may wait for another process's lock the blocking way: nothing is served yet.
    const sqlite = new SQLite(path, { timeout: statementTimeoutMs });
    // WAL lets readers run while one writer writes. FULL syncs the log at every commit, so a
    // write that was answered survives a power loss, not only a crash of the process; group
    // commit (group-commit.ts) shares that sync among the writes that arrive together.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // From here on a locked file fails at once, and the dialect waits on timers instead, so a
    // lock held elsewhere never blocks the event loop (sqlite-lock-wait.ts).
    sqlite.pragma('busy_timeout = 0');
    const connection = sqliteConnection(sqlite);
    const db = new Kysely<Database>({ dialect: new LockWaitingSqliteDialect({ database: connection.database, lockWaitMs: statementTimeoutMs }), plugins });
    registerDataVersion(db, connection.version);
    // Reads compiled once run at once, their rows named as the plugin names them (compiled-query.ts).
    registerDirectReads(db, (sql, parameters) => connection.readNow(sql, parameters)?.map((row) => camelCase.rowNamed(row as Record<string, unknown>)));
    registerGroupCommit(db);
    return { db, dialect, location: locationOf(url), close: () => db.destroy() };
  }

  throw new Error(`DATABASE_URL must be sqlite:PATH, a file path, or postgres://… (got ${JSON.stringify(redactPassword(url))})`);
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
export async function withDb<T>(url: string, statementTimeoutMs: number, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const handle = createDb(url, { poolMax: 1, statementTimeoutMs });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * PostgreSQL drivers return int8 (bigint) as a string because it may not fit a JS number. Every
 * int8 we store (ids, category ids, epoch milliseconds) is bounded to 2^53−1, so converting here,
 * in one place, is exact; a value beyond that is a corrupted row and fails loudly rather than rounding.
 */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} is beyond 2^53-1 and cannot be represented exactly`);
  return parsed;
}

/** Where a DATABASE_URL's data lives, with any password hidden (a SQLite path made absolute): safe to log and show. */
export function locationOf(url: string): string {
  return dialectOf(url) === 'sqlite' ? `sqlite:${sqlitePathOf(url)}` : redactPassword(url);
}

export function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}

/** Errors that mean "the database cannot serve now, try again", as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const err = error as { code?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  const code = typeof err.code === 'string' ? err.code : '';
  return (
    UNAVAILABLE_CODES.has(code) ||
    isSqliteBusy(error) ||
    // PostgreSQL: connection exceptions (08…), insufficient resources (53…: too many connections,
    // out of memory, disk full), shutdown, start-up or a terminated session (57P…), statement
    // timeout (57014), a session ended for idling in its transaction (25P03).
    /^(08|53|57P)/.test(code) ||
    code === '57014' ||
    code === '25P03' ||
    // PostgreSQL: a table changed under a statement prepared on this connection, inside a transaction.
    isStalePreparedStatement(error) ||
    // SQLite: the disk is full, or the file could not be written.
    code.startsWith('SQLITE_FULL') ||
    code.startsWith('SQLITE_IOERR') ||
    // SQLite: rolled back with the rest of its transaction, as when another write of its group failed (group-commit.ts).
    code === 'SQLITE_ABORT_ROLLBACK'
  );
}

const UNAVAILABLE_CODES = new Set([
  // Node's network errors.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // Postgres.js: a connection closed under a statement, closed by us, ended, or not opened in time.
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  // No answer within the operation's budget (postgres-deadline.ts).
  DEADLINE_CODE,
  'SQLITE_LOCKED',
]);
