/**
 * When committed data may have changed, for a database that can tell it cheaply: SQLite, where
 * this process is the database engine (db/sqlite-statements.ts counts its own writes and reads
 * `PRAGMA data_version` for other processes' commits). On PostgreSQL other instances commit
 * unseen, so no version is known there. What to do with the version (keep answers until it moves:
 * http/kept-answers.ts) is the reader's business, not the database's.
 */
import type { Kysely } from 'kysely';

/** A value that changes whenever committed data may have changed; equal values mean nothing did. */
export interface DataVersion {
  current(): number;
}

/**
 * The data version of each database made by createDb, when its dialect can tell one; by its
 * adapter, which every Kysely instance made from it shares (`withPlugin` included).
 */
const dataVersions = new WeakMap<object, DataVersion>();

export function registerDataVersion(db: Kysely<any>, version: DataVersion): void {
  dataVersions.set(db.getExecutor().adapter, version);
}

/** The database's data version, or undefined when it cannot tell when data changed (PostgreSQL). */
export function dataVersionOf(db: Kysely<any>): DataVersion | undefined {
  return dataVersions.get(db.getExecutor().adapter);
}
