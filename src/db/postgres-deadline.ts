/**
 * One deadline per PostgreSQL operation, shared by the wait for a pooled connection and the
 * query. With separate timeouts the waits added up: a request could wait the whole connection
 * timeout for a connection that a stalled query freed only at its own read timeout, then stall
 * the whole read timeout itself (5 s + 6 s in a 20 s network stall). Here the query is given
 * only what the wait left of the operation's budget, so nothing waits longer than the budget.
 * Each query runs under its prepared statement's name (postgres-named-statements.ts); a
 * connection whose statements went stale (0A000, below) is run unnamed, then not reused.
 */
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { statementNameOf } from './postgres-named-statements.js';

/** pg's error when a query gets no answer within its read timeout (`query_timeout`). */
const READ_TIMEOUT = /Query read timeout/;

/**
 * Wraps a pool whose `connectionTimeoutMillis` is below `budgetMs`: each `connect()` starts a
 * budget, and the first query on that connection may read only for what is left of it (later
 * ones, inside a transaction, get a whole budget each). A connection whose query timed out is
 * closed on release rather than reused: its stalled query would hold up the next one.
 */
export function poolWithDeadline(pool: pg.Pool, budgetMs: number, now: () => number = () => performance.now()): PostgresPool {
  return {
    async connect() {
      const deadline = now() + budgetMs;
      return clientWithDeadline(await pool.connect(), deadline, budgetMs, now);
    },
    end: () => pool.end(),
  };
}

/**
 * PostgreSQL's 0A000 (feature_not_supported) "cached plan must not change result type": a table
 * changed under a statement prepared on this connection. The one place that recognises it: here
 * it makes the statement run again unprepared, and create-db.ts counts it as "unavailable" (503)
 * when it ends a transaction. Told apart from other 0A000 errors by the server's routine, which
 * no locale translates, or by its English message.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, routine, message } = (error ?? {}) as { code?: unknown; routine?: unknown; message?: unknown };
  return code === '0A000' && (routine === 'RevalidateCachedQuery' || (typeof message === 'string' && /cached plan must not change result type/.test(message)));
}

function clientWithDeadline(client: pg.PoolClient, deadline: number, budgetMs: number, now: () => number): PostgresPoolClient {
  let firstQuery = true;
  let timedOut = false;
  /** This connection's prepared statements predate a change of a table they read: it is not reused. */
  let stale = false;
  /** Whether a transaction is open on this connection (Kysely opens and ends them with these statements). */
  let inTransaction = false;
  const query = async (text: string, parameters: ReadonlyArray<unknown>): Promise<unknown> => {
    // At least a millisecond: pg reads 0 as "no timeout".
    const readTimeoutMs = firstQuery ? Math.max(1, Math.floor(deadline - now())) : budgetMs;
    firstQuery = false;
    if (TRANSACTION_START.test(text)) inTransaction = true;
    else if (TRANSACTION_END.test(text)) inTransaction = false;
    // pg reads `query_timeout` from the query too (its typings only know the pool-wide one).
    // Statements without parameters (begin, commit, migrations' DDL) keep the simple protocol;
    // a connection found stale prepares nothing more.
    const name = parameters.length > 0 && !stale ? statementNameOf(text) : undefined;
    const config = { name, text, values: [...parameters], query_timeout: readTimeoutMs } as pg.QueryConfig;
    try {
      return await client.query(config);
    } catch (error) {
      if (READ_TIMEOUT.test(String((error as Error | null)?.message))) timedOut = true;
      if (!isStalePreparedStatement(error) || name === undefined) throw error;
      // Another instance changed a table (a column added by its migration) under a statement
      // prepared before: run it again unprepared, unless a transaction was open (the failure
      // ended it; the caller sees it as the database being unavailable, 503, and may retry).
      stale = true;
      if (inTransaction) throw error;
      return await client.query({ ...config, name: undefined } as pg.QueryConfig);
    }
  };
  return {
    // Kysely passes a cursor here only when the dialect is given one, which createDb never does.
    query: query as PostgresPoolClient['query'],
    release: (destroy?: boolean) => client.release(destroy || timedOut || stale),
  };
}

const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback|end|abort)\s*;?\s*$/i;
