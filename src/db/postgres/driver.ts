/**
 * The Kysely driver for PostgreSQL over one pg Pool. Kysely takes a connection from the pool for
 * each statement outside a transaction and hands it back after; a transaction keeps its
 * connection from begin to end. What it adds to Kysely's own PostgresDriver:
 * - one deadline per operation (deadline.ts): the wait for a connection and the
 *   statement share it, and a connection whose answer came late is closed, never reused;
 * - a connection lost under a statement fails as unavailable (code CONNECTION_CLOSED: 503; link.ts);
 * - statements with parameters are prepared once per connection, under a name, and prepared
 *   again when the server refuses the prepared form (prepared-statements.ts).
 * The compiled reads, outside any transaction, skip it for one pg call of their own (direct-read.ts).
 * No savepoints: nothing on PostgreSQL uses them, and Kysely refuses them without these methods.
 */
import { AbortedTransactionError, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { raceDeadline, startBudget, type Budget } from './deadline.js';
import { alreadyClosed, closeLink, connectFailure, dropped, endsSession, failureOn, isLost, watchLink } from './link.js';
import { runStatement } from './prepared-statements.js';

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
      throw connectFailure(error, this.pool, this.budgetMs);
    });
    return new PoolConnection(client, budget, this.budgetMs);
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
    return isLost(this.client);
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.execute<R>(compiled.sql, compiled.parameters as unknown[]);
  }

  async execute<R>(text: string, values: unknown[]): Promise<QueryResult<R>> {
    const budget = this.#budget ?? startBudget(this.budgetMs);
    this.#budget = undefined;
    if (this.closed) throw alreadyClosed();
    try {
      return await runStatement<R>(this.client, text, values, {
        race: (work) => raceDeadline(work, budget, () => this.#close()),
        inTransaction: this.inTransaction,
        inDoubt: () => (this.#discard = true),
      });
    } catch (error) {
      if (endsSession(error)) this.#discard = true;
      throw failureOn(this.client, error);
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
