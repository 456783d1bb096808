/**
 * `animal-store backup FILE` on SQLite: a consistent copy of the store while the service serves
 * and writes. `VACUUM INTO` copies the store inside one read transaction, so in WAL mode writers
 * go on meanwhile and the copy is the store as of that transaction's start; unlike SQLite's
 * page-by-page online backup, it never starts over when a write lands during the copy, so it
 * finishes under continuous writes. The copy is written to a temporary file beside FILE and
 * renamed to FILE only once complete and synced: FILE is never a half-written store.
 */
import { closeSync, constants, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  bytes: number;
  seconds: number;
}

/** The key hashes and webhook secrets in a store are no other local user's business. */
export const BACKUP_FILE_MODE = 0o600;

export class BackupRefused extends Error {}

/** Copies the SQLite store at `storePath` to `file`; refuses an existing `file` unless `force`. */
export function backupSqliteStore(storePath: string, file: string, options: { force: boolean; lockWaitMs: number }): BackupResult {
  const started = performance.now();
  // With --force, a rename onto the store itself would replace it under the running service.
  if (sameFile(file, storePath)) throw new BackupRefused(`${file} is the store itself; choose another file`);
  if (!options.force && exists(file)) throw new BackupRefused(`${file} exists; choose a new file, or add --force to replace it`);
  if (!exists(storePath)) throw new BackupRefused(`there is no store at ${storePath}: check DATABASE_URL`);
  // A folder made here is owner-only, as the service's own (create-db.ts).
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = temporaryBeside(file);
  // Made empty and owner-only before SQLite writes into it (VACUUM INTO accepts an empty file).
  closeSync(openSync(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, BACKUP_FILE_MODE));
  try {
    // Not read-only: a read-only connection cannot open a WAL store whose -shm is missing.
    const store = new SQLite(storePath, { fileMustExist: true, timeout: options.lockWaitMs });
    try {
      store.prepare('VACUUM INTO ?').run(temporary);
    } finally {
      store.close();
    }
    syncFile(temporary);
    if (options.force) renameSync(temporary, file);
    else {
      // A link fails if FILE appeared meanwhile, where a rename would replace it.
      linkSync(temporary, file);
      rmSync(temporary);
    }
    syncFile(dirname(file));
  } finally {
    rmSync(temporary, { force: true });
  }
  return { bytes: statSync(file).size, seconds: (performance.now() - started) / 1000 };
}

/** A name beside `path` (same folder, so a rename is atomic) that no other run uses. */
export function temporaryBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

export function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether two paths name one file (through links too). */
export function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    const [first, second] = [statSync(a), statSync(b)];
    return first.dev === second.dev && first.ino === second.ino;
  } catch {
    return false;
  }
}

export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
