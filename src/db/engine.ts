/**
 * What a database made by createDb does beyond running Kysely's statements, in one object: its
 * engine. Repositories keep taking `db` (a `Kysely`, or a transaction of it); the few helpers whose
 * behaviour depends on the engine read it here, by name, where they act:
 * - `writeTransaction`/`singleWrite` (dialect.ts) join `groupCommit` (SQLite) and tell `commits`;
 * - compiled queries (compiled-query.ts) run through `directRead`;
 * - kept answers (http/kept-answers.ts) last until `dataVersion` moves (SQLite).
 * Every Kysely instance made from the database (a transaction, `withPlugin`) shares its adapter,
 * and through it the engine; `db` is the instance createDb made, the only one `directRead` serves
 * (a transaction's statements must go through the transaction's connection).
 */
import type { Kysely } from 'kysely';
import type { CommitListeners } from './commit-listeners.js';
import type { DataVersion } from './data-version.js';
import type { GroupCommit } from './sqlite/group-commit.js';

/** Runs a compiled read at once (SQLite) or sent at once (PostgreSQL), its rows named as Kysely's plugins name them. */
type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | Promise<unknown[]> | undefined;

export interface Engine {
  /** The instance createDb made. */
  readonly db: Kysely<any>;
  /** Told after each commit of a write made through this database (commit-listeners.ts). */
  readonly commits: CommitListeners;
  /** SQLite: the writes that arrive together commit as one group, one sync for all (sqlite/group-commit.ts). */
  readonly groupCommit?: GroupCommit;
  /** SQLite: a value that moves whenever committed data may have changed (data-version.ts). */
  readonly dataVersion?: DataVersion;
  /** Compiled reads' way straight to the connection, past Kysely's (compiled-query.ts). */
  readonly directRead?: DirectRead;
}

const engines = new WeakMap<object, Engine>();

export function attachEngine(engine: Engine): void {
  engines.set(engine.db.getExecutor().adapter, engine);
}

/** The engine of the database `db` was made from; undefined for a Kysely instance createDb did not make. */
export function engineOf(db: Kysely<any>): Engine | undefined {
  return engines.get(db.getExecutor().adapter);
}
