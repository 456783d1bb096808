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
  /** Tests only: how long a connection may stay idle before it is closed (ten seconds by default; fillPool keeps them). */
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
    // The wait for a connection (a new one, or one handed back) is cut at the operation's budget.
    connectionTimeoutMillis: options.connectMs,
    // Idle connections close after ten seconds (beyond those fillPool keeps); none is closed for its age.
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
 * A serving process's pool: opens its every connection and keeps them however long idle (pg's
 * `min`). A burst after a quiet spell (200 event streams opened at once) otherwise waited while the
 * pool opened connections, each a new server process with cold caches, and the writes arriving then
 * waited behind them (creates' p99 while 200 streams opened: 81–129 ms, 35–42 ms with the pool full;
 * docs/performance.md). Each connection is handed back as soon as it is open, so requests arriving
 * meanwhile use it. When one cannot be opened (the server's max_connections, a role's limit, a
 * timeout), the pool keeps none for good: it would hold the slots the CLI and a restarting instance
 * need, so it goes back to opening and closing connections on demand; the failure is answered.
 */
export async function fillPool(pool: pg.Pool): Promise<Error | undefined> {
  const max = pool.options.max ?? 0;
  // pg-pool reads `min` at each release (test/db/postgres/pool-fill.test.ts holds it to that).
  pool.options.min = max;
  // Every connection in use at once: the idle ones are taken, the missing ones opened.
  const inUse = pool.totalCount - pool.idleCount;
  const opened = await Promise.allSettled(Array.from({ length: Math.max(0, max - inUse) }, () => pool.connect().then((client) => client.release())));
  const refused = opened.find((result) => result.status === 'rejected');
  if (refused === undefined) return undefined;
  pool.options.min = 0;
  // Handed back again, so the idle ones beyond `min` close in their turn.
  const idle = await Promise.allSettled(Array.from({ length: pool.idleCount }, () => pool.connect()));
  for (const result of idle) if (result.status === 'fulfilled') result.value.release();
  return refused.reason as Error;
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
