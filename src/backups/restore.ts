/**
 * `animal-store restore FILE` on SQLite: puts a backup in place of an empty or absent store.
 * FILE must be a whole animal-store store this release knows; the target must hold no pets,
 * orders, keys, webhook endpoints or events, and no process may have it open. The copy is made
 * beside the target, synced, and renamed over it, so the target is the old store or the whole
 * backup, never a mix.
 */
import { chmodSync, closeSync, constants, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { BACKUP_FILE_MODE, BackupRefused, exists, sameFile, syncFile, temporaryBeside } from './backup.js';

/** The tables whose rows make a store not empty, with the words a refusal names them by. */
const CONTENT_TABLES: [table: string, what: string][] = [
  ['pets', 'pet(s)'],
  ['orders', 'order(s)'],
  ['api_keys', 'API key(s)'],
  ['webhook_endpoints', 'webhook endpoint(s)'],
  ['events', 'event(s)'],
];

/** Kysely's record of the applied migrations. */
const MIGRATIONS_TABLE = 'kysely_migration';

export function restoreSqliteStore(file: string, storePath: string): { migrations: number } {
  if (sameFile(file, storePath)) throw new BackupRefused(`${file} is the store DATABASE_URL names; restore into another place`);
  const migrations = checkBackup(file);
  // Same rule as the service's own files (create-db.ts): a folder made here is owner-only.
  mkdirSync(dirname(storePath), { recursive: true, mode: 0o700 });
  // The lock is let go before the rename: a service that starts on the target in the moment
  // between would meet the store replaced under it. Taking the check and the rename under one
  // lock would need the rename done while this process holds the old file open, which SQLite's
  // close (it removes the -wal by name) does not allow safely; the docs say to stop the service.
  if (exists(storePath)) refuseUnlessEmptyAndUnused(storePath);
  // A -wal or -shm left beside the target belongs to the store being replaced: SQLite would
  // replay that log onto the restored file. The check above opened the target, so any committed
  // content in the log was counted; the last connection's close has checkpointed it.
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${storePath}${suffix}`, { force: true });
  const temporary = temporaryBeside(storePath);
  closeSync(openSync(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, BACKUP_FILE_MODE));
  try {
    // VACUUM INTO rather than a file copy: a backup that was opened since has part of its
    // content in its own -wal, which a copy of the main file alone would lose.
    const backup = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      backup.prepare('VACUUM INTO ?').run(temporary);
    } finally {
      backup.close();
    }
    chmodSync(temporary, BACKUP_FILE_MODE);
    syncFile(temporary);
    renameSync(temporary, storePath);
    syncFile(dirname(storePath));
  } finally {
    rmSync(temporary, { force: true });
  }
  return { migrations };
}

/** Refuses a FILE that is not a sound animal-store store of a schema this release knows; answers its migration count. */
function checkBackup(file: string): number {
  if (!exists(file)) throw new BackupRefused(`there is no backup at ${file}`);
  let backup;
  try {
    backup = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupRefused(`${file} cannot be opened as a SQLite store: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = (backup.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    } catch (error) {
      throw new BackupRefused(`${file} is not a SQLite store (${(error as Error).message})`);
    }
    if (problems.join() !== 'ok') throw new BackupRefused(`${file} is damaged; SQLite's integrity check says: ${problems.slice(0, 5).join('; ')}`);
    if (!tableExists(backup, MIGRATIONS_TABLE))
      throw new BackupRefused(`${file} is a SQLite database but no animal-store store (it has no ${MIGRATIONS_TABLE} table)`);
    const applied = backup.prepare(`select name from ${MIGRATIONS_TABLE} order by name`).pluck().all() as string[];
    const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0)
      throw new BackupRefused(
        `${file} comes from a newer release (migration ${unknown.join(', ')} is unknown to this one): restore it with that release or a later one`,
      );
    return applied.length;
  } finally {
    backup.close();
  }
}

/**
 * Refuses a target some process has open, or one that holds anything.
 *
 * In use: every connection to a WAL store keeps a shared lock on the file for as long as it is
 * open, idle or not (SQLite relies on it to know who closes last). A connection in exclusive
 * locking mode must turn that into an exclusive lock on its first read, and with no busy timeout
 * fails at once with SQLITE_BUSY while any other process, a serving service included, has the
 * store open. A plain `BEGIN EXCLUSIVE` would not do: in WAL mode it excludes writers only.
 */
function refuseUnlessEmptyAndUnused(storePath: string): void {
  const target = new SQLite(storePath, { timeout: 0 });
  try {
    target.pragma('locking_mode = EXCLUSIVE');
    try {
      target.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY'))
        throw new BackupRefused(`${storePath} is in use by another process (a running service?): stop it, then restore`);
      throw error;
    }
    const found = CONTENT_TABLES.filter(([table]) => tableExists(target, table))
      .map(([table, what]) => [Number(target.prepare(`select count(*) from ${table}`).pluck().get()), what] as const)
      .filter(([count]) => count > 0)
      .map(([count, what]) => `${count} ${what}`);
    target.exec('COMMIT');
    if (found.length > 0)
      throw new BackupRefused(`${storePath} is not empty (it holds ${found.join(', ')}): restore into an empty or absent store, or move this one away first`);
  } finally {
    target.close();
  }
}

function tableExists(db: SQLite.Database, table: string): boolean {
  return db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table) !== undefined;
}
