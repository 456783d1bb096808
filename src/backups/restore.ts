/**
 * `animal-store restore FILE` on SQLite: puts a backup in place of an empty or absent store.
 * FILE must be a whole animal-store store this release knows; the target must hold no pets,
 * orders, keys, webhook endpoints or events, and no process may have it open. The copy is made
 * beside the target, synced, and renamed over it while the old store is held exclusively
 * (replaceUnused), so the target is the old store or the whole backup, never a mix, and no
 * service can go on with the old one.
 */
import { chmodSync, closeSync, constants, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { openExclusively, StoreInUse } from '../db/sqlite/exclusive-open.js';
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

/**
 * `beforeReplace` runs once the target is checked, in the moment a service could open it before
 * the rename (a test opens it there).
 */
export function restoreSqliteStore(file: string, storePath: string, hooks: { beforeReplace?: () => void } = {}): { migrations: number } {
  if (sameFile(file, storePath)) throw new BackupRefused(`${file} is the store DATABASE_URL names; restore into another place`);
  const migrations = checkBackup(file);
  // Same rule as the service's own files (create-db.ts): a folder made here is owner-only.
  mkdirSync(dirname(storePath), { recursive: true, mode: 0o700 });
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
    if (exists(storePath)) replaceUnused(storePath, temporary, hooks.beforeReplace);
    else {
      // A -wal or -shm left beside an absent store belongs to a store removed without them:
      // SQLite would replay that log onto the restored file.
      removeLogFiles(storePath);
      hooks.beforeReplace?.();
      // A link fails where a rename would replace: a store a service made meanwhile is not lost.
      try {
        linkSync(temporary, storePath);
      } catch (error) {
        if ((error as { code?: string }).code === 'EEXIST')
          throw new BackupRefused(`a store appeared at ${storePath} during the restore (a service starting?): stop it, then restore`);
        throw error;
      }
    }
    syncFile(dirname(storePath));
  } finally {
    rmSync(temporary, { force: true });
  }
  return { migrations };
}

/**
 * Puts `replacement` in place of the store at `storePath`, which must be empty and unused, without
 * ever letting go of the store between the check and the rename. Its connection holds the store
 * exclusively (a service that opens it meanwhile waits for the lock) and, before the rename:
 * switches it out of WAL mode, so that its close touches no -wal by name (the name is the new
 * store's by then); removes the stale -wal, -shm and -journal, which SQLite would otherwise read
 * as the new store's; and overwrites its header, so that a service that opened the old file in
 * the moment before the rename fails on its first read ("file is not a database") instead of
 * serving a store nobody else sees.
 */
function replaceUnused(storePath: string, replacement: string, beforeReplace?: () => void): void {
  let target;
  try {
    target = openExclusively(storePath);
  } catch (error) {
    if (error instanceof StoreInUse) throw new BackupRefused(`${storePath} is in use by another process (a running service?): stop it, then restore`);
    throw error;
  }
  try {
    const found = CONTENT_TABLES.filter(([table]) => tableExists(target, table))
      .map(([table, what]) => [Number(target.prepare(`select count(*) from ${table}`).pluck().get()), what] as const)
      .filter(([count]) => count > 0)
      .map(([count, what]) => `${count} ${what}`);
    target.exec('COMMIT');
    if (found.length > 0)
      throw new BackupRefused(`${storePath} is not empty (it holds ${found.join(', ')}): restore into an empty or absent store, or move this one away first`);
    target.pragma('journal_mode = DELETE');
    beforeReplace?.();
    removeLogFiles(storePath);
    const fd = openSync(storePath, 'r+');
    try {
      writeSync(fd, REPLACED_HEADER, 0, REPLACED_HEADER.length, 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(replacement, storePath);
  } finally {
    target.close();
  }
}

function removeLogFiles(storePath: string): void {
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${storePath}${suffix}`, { force: true });
}

/** Written over the replaced store's "SQLite format 3" header: it is no database any more. */
const REPLACED_HEADER = Buffer.from('replaced by animal-store restore\n');

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

function tableExists(db: SQLite.Database, table: string): boolean {
  return db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table) !== undefined;
}
