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
import { DEADLINE_CODE } from './postgres/deadline.js';
import { isForgottenPreparedStatement, isStalePreparedStatement } from './postgres/prepared-statements.js';
import { PostgresPoolDialect } from './postgres/dialect.js';
import { PostgresPoolDriver } from './postgres/driver.js';
import { createPostgresPool, fillPool, statsOf, type PoolStats } from './postgres/pool.js';
import { CommitListeners } from './commit-listeners.js';
import { attachEngine } from './engine.js';
import { createGroupCommit } from './sqlite/group-commit.js';
import { holdExclusively } from './sqlite/exclusive-open.js';
import { isSqliteBusy, LockWaitingSqliteDialect } from './sqlite/lock-wait.js';
import { sqliteConnection } from './sqlite/statements.js';

export type DialectName = 'sqlite' | 'postgres';

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

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const OTHER_URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A bare path names a SQLite file only when it looks like one: a word alone (`nonsense`) is more likely a mistake. */
const SQLITE_PATH = /\/|\.(db|sqlite3?)$/i;

/** The forms DATABASE_URL takes, for the message that refuses another. */
export const DATABASE_URL_FORMS = 'sqlite:PATH, postgres://… (or postgresql://…), or a file path that contains a / or ends in .db, .sqlite or .sqlite3';

/** Tells which dialect a DATABASE_URL selects, or none. */
export function dialectOf(url: string): DialectName | undefined {
  if (POSTGRES_URL.test(url)) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  return OTHER_URL_SCHEME.test(url) || !SQLITE_PATH.test(url) ? undefined : 'sqlite';
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
  /** Each column's name, worked out once: the service's columns are a few dozen. */
  readonly #names = new Map<string, string>();

  rowNamed(row: Record<string, unknown>): Record<string, unknown> {
    const named: Record<string, unknown> = {};
    for (const column of Object.keys(row)) {
      const value = row[column];
      // A value with names of its own (JSON, arrays of it) is named the plugin's way, nested names included.
      if (typeof value === 'object' && value !== null) return this.mapRow(row);
      named[this.#nameOf(column)] = value;
    }
    return named;
  }

  /** Rows given as arrays of values in the columns' order (pg's `rowMode: 'array'`), named as rowNamed names pg's objects. */
  rowsNamed(columns: readonly string[], rows: readonly unknown[][]): Record<string, unknown>[] {
    const { kept, names, at } = this.#layoutOf(columns);
    return rows.map((values) => {
      const named: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = values[at[i]!];
        if (typeof value === 'object' && value !== null) return this.mapRow(Object.fromEntries(kept.map((column, j) => [column, values[at[j]!]])));
        named[names[i]!] = value;
      }
      return named;
    });
  }

  /** Each set of columns' layout, worked out once: the compiled reads' are few. */
  readonly #layouts = new Map<string, { kept: string[]; names: string[]; at: number[] }>();

  #layoutOf(columns: readonly string[]): { kept: string[]; names: string[]; at: number[] } {
    const key = columns.join('\0');
    let layout = this.#layouts.get(key);
    if (layout === undefined) {
      // The keys pg's object would have, in its order (integer-like names first), the last of equal names winning.
      const positions = Object.fromEntries(columns.map((column, i) => [column, i]));
      const kept = Object.keys(positions);
      layout = { kept, names: kept.map((column) => this.#nameOf(column)), at: kept.map((column) => positions[column]!) };
      if (this.#layouts.size < 1000) this.#layouts.set(key, layout);
    }
    return layout;
  }

  #nameOf(column: string): string {
    let name = this.#names.get(column);
    if (name === undefined) {
      name = this.camelCase(column);
      if (this.#names.size < 1000) this.#names.set(column, name);
    }
    return name;
  }
}

export function createDb(url: string, options: DbOptions = {}): DbHandle {
  const dialect = dialectOf(url);
  const statementTimeoutMs = options.statementTimeoutMs ?? CONFIG_DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS;
  const camelCase = new ColumnNames();
  const plugins = [camelCase];

  if (dialect === 'postgres') {
    // Statement timeout, idle-in-transaction timeout and the one budget per operation:
    // postgres/pool.ts, postgres/driver.ts and postgres/deadline.ts.
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
        const { columns, rows } = await driver.run(sql, parameters);
        return camelCase.rowsNamed(columns, rows);
      },
    });
    return {
      db,
      dialect,
      location: locationOf(url),
      close: () => db.destroy(),
      poolStats: () => statsOf(driver.pool, max),
      fillPool: () => fillPool(driver.pool),
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

/** Where a DATABASE_URL's data lives, with any password hidden (a SQLite path made absolute): safe to log and show. */
export function locationOf(url: string): string {
  return dialectOf(url) === 'sqlite' ? `sqlite:${sqlitePathOf(url)}` : redactPassword(url);
}

export function redactPassword(url: string): string {
  // The user information ends at the authority's last "@" (a URL reads an "@" left unencoded in a
  // password as part of it), or, in a URL broken by a "/" in the password, at the first "@"; the
  // password is whatever follows its first ":", also without a user name.
  return url.replace(/^([^:/?#]*:\/\/)([^/?#]*|[^@]*)@/, (whole, start: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? whole : `${start}${userinfo.slice(0, colon)}:***@`;
  });
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
    // PostgreSQL: a table changed under a statement prepared on this connection, or the server forgot
    // it, inside a transaction (the driver drops the connection; a retry takes another).
    isStalePreparedStatement(error) ||
    isForgottenPreparedStatement(error) ||
    // SQLite: the disk is full, or the file could not be written.
    code.startsWith('SQLITE_FULL') ||
    code.startsWith('SQLITE_IOERR') ||
    // SQLite: rolled back with the rest of its transaction, as when another write of its group failed (sqlite/group-commit.ts).
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
  // A connection lost under a statement (postgres/driver.ts).
  'CONNECTION_CLOSED',
  // No answer within the operation's budget (postgres/deadline.ts).
  DEADLINE_CODE,
  'SQLITE_LOCKED',
]);
