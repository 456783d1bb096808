/**
 * Waiting for SQLite's write lock without freezing the process. better-sqlite3 runs statements
 * synchronously, so its busy timeout sleeps inside SQLite on the event loop: while another
 * process (`keys create`, a backup, another worker) held the lock, every request of this one,
 * health checks included, stood still. Here the connection has no busy timeout; a statement
 * refused with SQLITE_BUSY gives the connection back and is tried again after a timer, until
 * the lock wait (the statement timeout) since it was asked for has passed; then it fails with
 * that SQLITE_BUSY error, which callers treat as "database unavailable" (503).
 *
 * Only whole units of work are retried: a statement on its own, or the `begin immediate` that
 * opens a transaction (it takes the write lock first, so nothing inside the transaction can
 * meet SQLITE_BUSY half-way). A statement inside a transaction is never retried on its own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import { errorCodeOf } from '../error-code.js';

/** First pause after a refusal; it doubles up to the longest, so a long lock costs few attempts. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

export function isSqliteBusy(error: unknown): boolean {
  return errorCodeOf(error)?.startsWith('SQLITE_BUSY') ?? false;
}

/** Milliseconds on a clock that never jumps (unlike Date.now), for deadlines. */
const monotonicNow = (): number => performance.now();

/** Runs `attempt` until it does not fail with SQLITE_BUSY, pausing on timers, or until `deadline` (on `now`'s clock). */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, deadline: number, now: () => number = monotonicNow): Promise<T> {
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      const left = deadline - now();
      if (!isSqliteBusy(error) || left <= 0) throw error;
      await sleep(Math.min(pause, left));
    }
  }
}

/** Kysely's SqliteDialect whose statements wait for the write lock on timers (see above). */
export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #lockWaitMs: number;

  constructor(config: SqliteDialectConfig & { lockWaitMs: number }) {
    const { lockWaitMs, ...sqliteConfig } = config;
    super(sqliteConfig);
    this.#lockWaitMs = lockWaitMs;
  }

  override createDriver(): Driver {
    return new LockWaitingDriver(super.createDriver(), this.#lockWaitMs);
  }
}

/**
 * Hands out connections that hold Kysely's one SQLite connection only while a statement runs
 * (or for a whole transaction), so a statement waiting for the lock holds up no one else:
 * readers are never locked out in WAL mode and keep being served meanwhile. Hence Kysely's
 * `db.connection()` no longer reserves the connection between its statements (a transaction
 * does); its one user, the migrator, runs before this process serves anything. Statement
 * handling itself (preparing, caching) stays in the inner driver this one wraps.
 */
class LockWaitingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly lockWaitMs: number,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LockWaitingConnection(this.inner, monotonicNow() + this.lockWaitMs);
  }

  beginTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as LockWaitingConnection).begin();
  }

  // The transaction's end gives the inner connection back at once: on a connection reserved with
  // `db.connection()` (the migrator's), Kysely runs several transactions and releases only at
  // the end, and the next `begin` would otherwise wait for the inner connection forever.
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    await (connection as LockWaitingConnection).release();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      // SQLite already rolled back by itself (a COMMIT that failed for a full disk or an I/O
      // error): nothing is left to undo, and this error would hide the one that tells why.
      if (!/no transaction is active/.test(String((error as Error | null)?.message))) throw error;
    }
    await (connection as LockWaitingConnection).release();
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return (connection as LockWaitingConnection).release();
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

class LockWaitingConnection implements DatabaseConnection {
  /** The inner connection, held from `begin immediate` until this connection is released. */
  #transaction: DatabaseConnection | undefined;

  constructor(
    private readonly inner: Driver,
    private readonly deadline: number,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#transaction) return this.#transaction.executeQuery<R>(query);
    return retryWhileBusy(() => this.#once((connection) => connection.executeQuery<R>(query)), this.deadline);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.#transaction) {
      yield* this.#transaction.streamQuery<R>(query, chunkSize);
      return;
    }
    const connection = await this.inner.acquireConnection();
    try {
      yield* connection.streamQuery<R>(query, chunkSize);
    } finally {
      await this.inner.releaseConnection(connection);
    }
  }

  /** Opens a transaction holding the write lock; only this statement waits for the lock. */
  async begin(): Promise<void> {
    this.#transaction = await retryWhileBusy(async () => {
      const connection = await this.inner.acquireConnection();
      try {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        return connection;
      } catch (error) {
        await this.inner.releaseConnection(connection);
        throw error;
      }
    }, this.deadline);
  }

  async release(): Promise<void> {
    const transaction = this.#transaction;
    this.#transaction = undefined;
    if (transaction) await this.inner.releaseConnection(transaction);
  }

  async #once<T>(work: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    const connection = await this.inner.acquireConnection();
    try {
      return await work(connection);
    } finally {
      await this.inner.releaseConnection(connection);
    }
  }
}
