/**
 * When committed data may have changed, for a database that can tell it cheaply: SQLite, where
 * this process is the database engine (db/sqlite/statements.ts counts its own writes and reads
 * `PRAGMA data_version` for other processes' commits). On PostgreSQL other instances commit
 * unseen, so no version is known there. The engine holds it (engine.ts). What to do with the version (keep answers until it moves:
 * http/kept-answers.ts) is the reader's business, not the database's.
 */
/** A value that changes whenever committed data may have changed; equal values mean nothing did. */
export interface DataVersion {
  current(): number;
}
