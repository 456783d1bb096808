/**
 * The one SQLite connection as Kysely sees it, with three things Kysely's driver does not do:
 *
 * - Statements are prepared once and reused. Kysely's SQLite driver prepares every statement
 *   again on each query; under load that was 12 % of the busy time of a page of 20 pets, and on
 *   getPet preparing cost more than running (docs/performance.md). The statements are a bounded
 *   set (every value is a parameter; shapes differ only by which filters a listing has and how
 *   many ids it names), but the cache is bounded anyway, oldest out first.
 * - It tells when the data may have changed (`DataVersion`, db/data-version.ts), so answers read
 *   from the database can be kept and reused until then (http/kept-answers.ts): this connection's
 *   own writes count at once, and other connections' commits (another worker, `keys create`,
 *   another instance on the same file) through `PRAGMA data_version`, read at every check (a kept
 *   answer is checked before it is sent): in WAL mode by reading the WAL-index header that
 *   `data_version` itself is decided by (db/sqlite/wal-index-changes.ts: one `pread`, about 0.8 µs
 *   against 2 µs and two `fcntl` calls for the statement). Reading it once per turn of the event
 *   loop was not enough: pipelined requests are read in one turn, and one sent after another
 *   process's commit was answered from the page kept before it.
 * - A read may run at once (`readNow`), without Kysely's chain of promises (a connection
 *   acquired, a lock-wait wrapper, released) that cost a getPet more than the statement itself:
 *   only a read-only statement, only while no transaction is open on the connection (a read must
 *   not see a transaction's uncommitted writes, so it waits for the connection the ordinary way),
 *   and a read SQLite refuses for a lock (SQLITE_BUSY) is left to that ordinary way, which waits.
 */
import type Sqlite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import type { DataVersion } from '../data-version.js';
import { isSqliteBusy } from './lock-wait.js';
import { walIndexChanges } from './wal-index-changes.js';

const MAX_CACHED_STATEMENTS = 500;

export interface SqliteConnection {
  /** What Kysely's SqliteDialect is given as its `database`. */
  database: SqliteDatabase;
  version: DataVersion;
  /** The rows of a read-only statement run now, or undefined when it must take Kysely's way. */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
}

export function sqliteConnection(sqlite: Sqlite.Database): SqliteConnection {
  const statements = new Map<string, Sqlite.Statement>();
  /** Bumped by every statement of this connection that may write (a commit included). */
  let ownWrites = 0;
  /** Other connections' commits, as `PRAGMA data_version` counts them, read from the WAL-index when it can be. */
  const walIndex = usesSharedWalIndex(sqlite) ? walIndexChanges(sqlite.name) : undefined;
  const readDataVersion = sqlite.prepare('pragma data_version').pluck();
  const othersCommits = walIndex ? () => walIndex.read() : () => readDataVersion.get() as number;

  const prepare = (sql: string): Sqlite.Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = sqlite.prepare(sql);
      if (statements.size >= MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
    }
    return statement;
  };

  const database: SqliteDatabase = {
    prepare(sql) {
      const statement = prepare(sql);
      // `readonly`, not `reader`: an INSERT … RETURNING is a reader that writes.
      if (statement.readonly) return statement;
      // Counted when it runs: a write that fails changed nothing, but counting it anyway only
      // costs one cache miss.
      return {
        reader: statement.reader,
        all: (parameters) => {
          ownWrites += 1;
          return statement.all(parameters);
        },
        run: (parameters) => {
          ownWrites += 1;
          return statement.run(parameters);
        },
        iterate: (parameters) => {
          ownWrites += 1;
          return statement.iterate(parameters);
        },
      };
    },
    close: () => {
      sqlite.close();
      walIndex?.close();
    },
  };

  const version: DataVersion = {
    // Both only grow, so their sum changes whenever either does. (2^53 writes: never.)
    current: () => othersCommits() + ownWrites,
  };

  const readNow = (sql: string, parameters: readonly unknown[]): unknown[] | undefined => {
    if (sqlite.inTransaction) return undefined;
    const statement = prepare(sql);
    if (!statement.readonly || !statement.reader) return undefined;
    try {
      return statement.all(parameters);
    } catch (error) {
      if (isSqliteBusy(error)) return undefined;
      throw error;
    }
  };

  return { database, version, readNow };
}

/** WAL mode with normal locking: the wal-index lives in the `-shm` file, shared by every connection. */
function usesSharedWalIndex(sqlite: Sqlite.Database): boolean {
  return !sqlite.memory && sqlite.pragma('journal_mode', { simple: true }) === 'wal' && sqlite.pragma('locking_mode', { simple: true }) === 'normal';
}
