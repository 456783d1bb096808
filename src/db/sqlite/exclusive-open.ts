/**
 * Holding a SQLite store so that no other process has it open. Every connection to a WAL store
 * keeps a shared lock on the file for as long as it is open, idle or not (SQLite relies on it to
 * know who closes last). A connection in exclusive locking mode must turn that into an exclusive
 * lock on its first read, and with no busy timeout fails at once with SQLITE_BUSY while any other
 * process, a serving service included, has the store open. A plain `BEGIN EXCLUSIVE` would not
 * do: in WAL mode it excludes writers only.
 */
import SQLite from 'better-sqlite3';

export class StoreInUse extends Error {
  constructor(readonly path: string) {
    super(`${path} is in use by another process`);
  }
}

/** A connection holding `path` exclusively until it is closed, inside an open transaction; throws StoreInUse when another process has it open. */
export function openExclusively(path: string): SQLite.Database {
  const store = holdExclusively(path);
  store.exec('BEGIN EXCLUSIVE');
  return store;
}

/**
 * A connection holding `path` exclusively until it is closed, outside any transaction: the lock
 * stays after the first transaction ends (exclusive locking mode never lets go of it). Throws
 * StoreInUse when another process has it open.
 */
export function holdExclusively(path: string): SQLite.Database {
  const store = new SQLite(path, { timeout: 0, fileMustExist: true });
  try {
    store.pragma('locking_mode = EXCLUSIVE');
    store.exec('BEGIN EXCLUSIVE');
    store.exec('COMMIT');
    return store;
  } catch (error) {
    store.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new StoreInUse(path);
    throw error;
  }
}
