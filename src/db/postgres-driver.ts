/**
 * The Kysely dialect for PostgreSQL, over the service's own connections (postgres-connections.ts):
 * a statement outside a transaction goes out pipelined on a shared connection; `begin` takes a
 * connection for the transaction alone, and its end hands it back. Kysely asks for a connection
 * before every statement, so the one it gets here is only a handle until a transaction begins.
 *
 * `db.connection()` therefore pins no session outside a transaction: the service keeps no session
 * state (settings, advisory locks) outside one.
 */
import {
  AbortedTransactionError,
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { startBudget } from './postgres-deadline.js';
import type { PostgresConnections, Reserved, Rows } from './postgres-connections.js';

export class PipelinedPostgresDialect implements Dialect {
  readonly #connections: PostgresConnections;
  readonly #budgetMs: number;

  constructor(connections: PostgresConnections, budgetMs: number) {
    this.#connections = connections;
    this.#budgetMs = budgetMs;
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PipelinedDriver(this.#connections, this.#budgetMs);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

class PipelinedDriver implements Driver {
  readonly #connections: PostgresConnections;
  readonly #budgetMs: number;

  constructor(connections: PostgresConnections, budgetMs: number) {
    this.#connections = connections;
    this.#budgetMs = budgetMs;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PipelinedConnection(this.#connections, this.#budgetMs);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      text = 'start transaction';
      if (settings.isolationLevel) text += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) text += ` ${settings.accessMode}`;
    }
    await (connection as PipelinedConnection).begin(text);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const { rows } = await connection.executeQuery<{ command?: string }>(CompiledQuery.raw('commit'));
    // PostgreSQL answers COMMIT with ROLLBACK when an earlier statement had failed the transaction.
    if (rows[0]?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // A connection closed under the transaction (its deadline, the network) took the transaction with it.
    if ((connection as PipelinedConnection).isClosed()) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoted(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).release();
  }

  async destroy(): Promise<void> {
    await this.#connections.end();
  }
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

class PipelinedConnection implements DatabaseConnection {
  readonly #connections: PostgresConnections;
  readonly #budgetMs: number;
  #reserved: Reserved | undefined;

  constructor(connections: PostgresConnections, budgetMs: number) {
    this.#connections = connections;
    this.#budgetMs = budgetMs;
  }

  /** Takes a connection for the transaction; `begin` gets what the wait for it left of the budget. */
  async begin(text: string): Promise<void> {
    const budget = startBudget(this.#budgetMs);
    this.#reserved = await this.#connections.reserve(budget);
    await this.#connections.runReserved(this.#reserved, text, [], budget);
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const budget = startBudget(this.#budgetMs);
    const rows = this.#reserved
      ? await this.#connections.runReserved(this.#reserved, compiledQuery.sql, compiledQuery.parameters, budget)
      : await this.#connections.run(compiledQuery.sql, compiledQuery.parameters, budget);
    return resultOf<R>(rows);
  }

  // eslint-disable-next-line require-yield -- the interface asks for a generator; the service streams nothing.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the PostgreSQL driver');
  }

  /** Whether the transaction's connection was closed under it. */
  isClosed(): boolean {
    return this.#reserved !== undefined && this.#connections.isClosed(this.#reserved);
  }

  release(): void {
    if (this.#reserved) this.#connections.release(this.#reserved);
    this.#reserved = undefined;
  }
}

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Kysely's result from Postgres.js's: the last statement's, when the simple protocol ran several. */
function resultOf<R>(answer: Rows | Rows[]): QueryResult<R> {
  const last = isSeveral(answer) ? answer.at(-1) : answer;
  if (!last) return { rows: [] };
  const command = last.command;
  // Kysely's commit reads a ROLLBACK answer (the transaction had failed) from the first row.
  if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] };
  return {
    numAffectedRows: COUNTED_COMMANDS.has(command) ? BigInt(last.count ?? 0) : undefined,
    rows: last as unknown as R[],
  };
}

function isSeveral(answer: Rows | Rows[]): answer is Rows[] {
  return (answer as Rows).command === undefined || (answer as { command: unknown }).command === null;
}
