/**
 * The Kysely driver for PostgreSQL over one pg Pool. Kysely takes a connection from the pool for
 * each statement outside a transaction and hands it back after; a transaction keeps its
 * connection from begin to end. What it adds to Kysely's own PostgresDriver:
 * - one deadline per operation (deadline.ts): the wait for a connection and the
 *   statement share it, and a connection whose answer came late is closed, never reused;
 * - a connection lost under a statement fails as unavailable (code CONNECTION_CLOSED: 503);
 * - statements with parameters are prepared once per connection, under a name, and prepared
 *   again when the server refuses the prepared form (prepared-statements.ts).
 * No savepoints: nothing on PostgreSQL uses them, and Kysely refuses them without these methods.
 */
import type net from 'node:net';
import { AbortedTransactionError, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { deadlineError, raceDeadline, startBudget, type Budget } from './deadline.js';
import { isForgottenPreparedStatement, isStalePreparedStatement, prepareAgain, runStatement, statementNameOf } from './prepared-statements.js';

export class PostgresPoolDriver implements Driver {
  constructor(
    readonly pool: pg.Pool,
    readonly budgetMs: number,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<PoolConnection> {
    const budget = startBudget(this.budgetMs);
    // The pool's own wait is cut at the same budget (its connectionTimeoutMillis).
    const client = await this.pool.connect().catch((error: Error) => {
      throw this.#connectFailure(error);
    });
    return new PoolConnection(client, budget, this.budgetMs);
  }

  #connectFailure(error: Error): Error {
    if (/timeout/.test(error.message)) return deadlineError(startBudget(this.pool.options.connectionTimeoutMillis ?? this.budgetMs));
    // Closed by the other end before the server answered (a balancer or proxy with no server behind it): unavailable.
    return /^Connection terminated/.test(error.message) ? closedError(error) : error;
  }

  /**
   * One statement on a connection of its own, outside any transaction: the compiled reads' way,
   * taken by nearly every request. The steps of acquireConnection and PoolConnection.execute, with
   * pg's callbacks and one promise: every promise layer costs on every read (docs/performance.md).
   * A refusal of the prepared form is met as runStatement meets it (prepareAgain).
   */
  run(text: string, parameters: readonly unknown[]): Promise<RowsAsArrays> {
    const budget = startBudget(this.budgetMs);
    const values = parameters as unknown[];
    return new Promise((resolve, reject) => {
      this.pool.connect((connectError, client) => {
        if (connectError || !client) return reject(this.#connectFailure(connectError ?? new Error('no connection')));
        let released = false;
        const release = (drop: boolean) => {
          if (released) return;
          released = true;
          client.release(drop ? dropped() : undefined);
        };
        // The callbacks run inside pg's socket handlers: whatever they throw is the read's failure.
        const failed = (error: unknown) => {
          release(true);
          reject(error instanceof Error ? error : new Error(String(error)));
        };
        try {
          watchLink(client);
          if (lostClients.has(client)) return failed(closedError(new Error('the connection was closed')));
          let settled = false;
          const timer =
            budget.budgetMs === Infinity
              ? undefined
              : setTimeout(() => {
                  settled = true;
                  closeLink(client);
                  failed(deadlineError(budget));
                }, budget.remainingMs());
          const name = values.length === 0 ? undefined : statementNameOf(text);
          const statement = { text, values, name, rowMode: 'array' as const };
          client.query(statement, (error: (Error & { code?: unknown }) | null, result: pg.QueryResult<unknown[]>) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            try {
              if (!error) {
                release(false);
                return resolve(rowsAsArrays(result));
              }
              if (name !== undefined && (isForgottenPreparedStatement(error) || isStalePreparedStatement(error))) {
                // Outside a transaction: prepared anew on this connection, within what is left of the budget.
                const race = <T>(work: Promise<T>) => raceDeadline(work, budget, () => closeLink(client));
                return void prepareAgain<unknown[]>(client, { ...statement, name }, error, race).then(
                  (again) => {
                    release(false);
                    try {
                      resolve(rowsAsArrays(again));
                    } catch (thrown) {
                      reject(thrown instanceof Error ? thrown : new Error(String(thrown)));
                    }
                  },
                  (again: unknown) => failed(lostClients.has(client) ? closedError(again as Error) : again),
                );
              }
              const lost = lostClients.has(client);
              // A statement with no server answer (pg could not send its values) leaves its name in doubt.
              release(lost || (name !== undefined && !error.code) || endsSession(error));
              reject(lost ? closedError(error) : error);
            } catch (thrown) {
              failed(thrown);
            }
          });
        } catch (thrown) {
          failed(thrown);
        }
      });
    });
  }

  async beginTransaction(connection: PoolConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) text += ` ${settings.accessMode}`;
    await connection.execute(text, []);
    connection.inTransaction = true;
  }

  async commitTransaction(connection: PoolConnection): Promise<void> {
    connection.inTransaction = false;
    const { rows } = await connection.execute<{ command?: string }>('commit', []);
    // PostgreSQL answers COMMIT with ROLLBACK when an earlier statement had failed the transaction.
    if (rows[0]?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: PoolConnection): Promise<void> {
    connection.inTransaction = false;
    // A connection closed under the transaction (its deadline, the network) took the transaction with it.
    if (!connection.closed) await connection.execute('rollback', []);
  }

  async releaseConnection(connection: PoolConnection): Promise<void> {
    connection.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** Connections whose socket was lost or closed by a deadline: nothing more is sent, and the pool drops them. */
const lostClients = new WeakSet<pg.PoolClient>();
const watchedClients = new WeakSet<pg.PoolClient>();

/**
 * Marks the connection lost when its socket fails or ends. Listened to once for the connection's
 * life, not per statement; the listener also keeps pg from throwing the error of a connection in
 * use, which has no other listener then.
 */
function watchLink(client: pg.PoolClient): void {
  if (watchedClients.has(client)) return;
  watchedClients.add(client);
  const onLost = () => lostClients.add(client);
  client.on('error', onLost).on('end', onLost);
}

class PoolConnection implements DatabaseConnection {
  inTransaction = false;
  /** Open, but not to be used again (a statement's name on it is in doubt): the pool drops it. */
  #discard = false;
  #budget: Budget | undefined;

  constructor(
    readonly client: pg.PoolClient,
    firstBudget: Budget,
    readonly budgetMs: number,
  ) {
    // The first statement gets what the wait for the connection left of its budget.
    this.#budget = firstBudget;
    watchLink(client);
  }

  /** The socket was lost or closed by a deadline: nothing more is sent, and the pool drops it. */
  get closed(): boolean {
    return lostClients.has(this.client);
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.execute<R>(compiled.sql, compiled.parameters as unknown[]);
  }

  async execute<R>(text: string, values: unknown[]): Promise<QueryResult<R>> {
    const budget = this.#budget ?? startBudget(this.budgetMs);
    this.#budget = undefined;
    if (this.closed) throw closedError(new Error('the connection was closed'));
    try {
      return await runStatement<R>(this.client, text, values, {
        race: (work) => raceDeadline(work, budget, () => this.#close()),
        inTransaction: this.inTransaction,
        inDoubt: () => (this.#discard = true),
      });
    } catch (error) {
      if (endsSession(error)) this.#discard = true;
      throw this.closed ? closedError(error as Error) : error;
    }
  }

  // eslint-disable-next-line require-yield -- the interface asks for a generator; the service streams nothing.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the PostgreSQL driver');
  }

  release(): void {
    // A connection in doubt is dropped: its late answer must not reach the next statement.
    this.client.release(this.closed || this.#discard ? dropped() : undefined);
  }

  #close(): void {
    closeLink(this.client);
  }
}

/**
 * The server ended the session with this error (a FATAL one: the backend was terminated, the
 * server is shutting down); the socket closes a moment later, so the connection is not handed out again.
 */
function endsSession(error: unknown): boolean {
  const severity = (error as { severity?: unknown } | null)?.severity;
  return severity === 'FATAL' || severity === 'PANIC';
}

/** What a connection is released with to have the pool close it rather than keep it. */
function dropped(): Error {
  return new Error('closed after a deadline or a lost connection, or holding a stale statement');
}

/** A statement passed its deadline: what is stuck on this connection stays stuck, so it is closed at once. */
function closeLink(client: pg.PoolClient): void {
  lostClients.add(client);
  (client as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
}

/** An error of the link, not of the statement (pg gives those no code): unavailable, answered 503. */
function closedError(error: Error): Error {
  if ((error as { code?: unknown }).code) return error;
  return Object.assign(new Error(`the database connection was lost (${error.message})`), { code: 'CONNECTION_CLOSED' });
}

/** A read's rows as arrays of values, in the order of its columns (pg's `rowMode: 'array'`). */
export interface RowsAsArrays {
  columns: string[];
  rows: unknown[][];
}

/** A text of several statements (the simple protocol, without parameters) answers the last one's rows, as Kysely's way does. */
function rowsAsArrays(answer: pg.QueryResult<unknown[]> | Array<pg.QueryResult<unknown[]>>): RowsAsArrays {
  const result = Array.isArray(answer) ? answer.at(-1) : answer;
  if (!result) return { columns: [], rows: [] };
  return { columns: result.fields.map((field) => field.name), rows: result.rows };
}
