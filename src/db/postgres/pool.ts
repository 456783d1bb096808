/**
 * The service's one pool of PostgreSQL connections (pg), with the settings docs/operations.md
 * "Connections and timeouts" promises.
 */
import pg from 'pg';
import { postgresConfigOf } from './url.js';

export interface PoolOptions {
  max: number;
  /** The server's statement_timeout; 0 for none. */
  statementTimeoutMs: number;
  idleInTransactionMs: number;
  /** The longest wait for a connection (deadline.ts: an operation's budget). */
  connectMs: number;
  /**
   * A serving process's pool: its `max` connections, once open (fillPool), stay open however long
   * idle. Otherwise a connection idle for `idleMs` is closed.
   */
  keepOpen?: boolean;
  /** Tests only: how long a connection may stay idle (ten seconds by default). */
  idleMs?: number;
}

/** The connections now, read by /metrics. */
export interface PoolStats {
  /** Connections open (idle, running a statement, or held by a transaction). */
  total: number;
  /** Open and not in use. */
  idle: number;
  /** Operations waiting for a connection because every one is in use. */
  waiting: number;
  max: number;
}

const INT8 = 20;
const INT8_ARRAY = 1016;
/** pg's typings name the scalar types only. */
type TypeId = Parameters<typeof pg.types.getTypeParser>[0];

export function createPostgresPool(url: string, options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    ...postgresConfigOf(url),
    max: options.max,
    min: options.keepOpen ? options.max : 0,
    // The wait for a connection (a new one, or one handed back) is cut at the operation's budget.
    connectionTimeoutMillis: options.connectMs,
    // Idle connections close after ten seconds, beyond `min`; none is closed for its age.
    idleTimeoutMillis: options.idleMs ?? 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 60_000,
    // A statement that runs too long is cancelled by the server. The service never pauses inside a
    // transaction on purpose; a session idle in one is a client gone silent (a partition, a stalled
    // link), whose row locks (a pet being ordered) would otherwise hold every other instance's
    // change of that row until TCP keepalive notices, hours on.
    statement_timeout: options.statementTimeoutMs,
    idle_in_transaction_session_timeout: options.idleInTransactionMs,
    types: { getTypeParser },
  });
  // An idle connection lost (a restart of the server, the network): the pool drops it; the next
  // operation opens another. Without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * Opens connections until the pool holds its `max` and hands them back idle; answers the error
 * that kept one from opening (the server's max_connections, say), if any. A serving process fills
 * its pool before it listens: a burst after a quiet spell (200 event streams opened at once) would
 * otherwise wait while the pool opened connections one burst request after another, each a new
 * server process with cold caches, and writes arriving then waited behind them (creates' p99 while
 * 200 streams opened went from 81–129 ms to 35–42 ms with the pool filled, docs/performance.md).
 */
export async function fillPool(pool: pg.Pool): Promise<Error | undefined> {
  const wanted = Math.max(0, (pool.options.max ?? 0) - pool.totalCount);
  const opened = await Promise.allSettled(Array.from({ length: wanted }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
  const failed = opened.find((result) => result.status === 'rejected');
  return failed === undefined ? undefined : (failed.reason as Error);
}

export function statsOf(pool: pg.Pool, max: number): PoolStats {
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max };
}

/** pg's parsers, but int8 as an exact number (pg gives it as a string, since it may not fit one). */
function getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === INT8) return parseInt8;
  if (oid === INT8_ARRAY) {
    const texts = pg.types.getTypeParser(INT8_ARRAY as TypeId, 'text') as (value: string) => Array<string | null>;
    return (value) => texts(value).map((item) => (item === null ? null : parseInt8(item)));
  }
  return pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text') as (value: string) => unknown;
}

/**
 * Every int8 the service stores (ids, category ids, epoch milliseconds) is bounded to 2^53−1, so
 * converting here, in one place, is exact; a value beyond that is a corrupted row and fails loudly
 * rather than rounding.
 */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} is beyond 2^53-1 and cannot be represented exactly`);
  return parsed;
}
