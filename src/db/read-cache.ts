/**
 * Answers read from the database, kept until the data may have changed. On SQLite, where the
 * process can know that cheaply (db/sqlite-statements.ts `DataVersion`), a page of pets served
 * again costs a map lookup instead of a query and a serialization; every entry is dropped as
 * soon as anything is committed, by this process or any other, so an answer is never staler
 * than the request before it. On PostgreSQL other instances commit unseen, so nothing is kept.
 *
 * Bounded: at most `maxEntries` answers (oldest out first), and all of them are dropped at the
 * first change, so a client sending a million different queries only churns the cache.
 */
import type { Kysely } from 'kysely';
import type { DataVersion } from './sqlite-statements.js';

/**
 * The data version of each database made by createDb, when its dialect can tell one; by its
 * adapter, which every Kysely instance made from it shares (`withPlugin` included).
 */
const dataVersions = new WeakMap<object, DataVersion>();

export function registerDataVersion(db: Kysely<any>, version: DataVersion): void {
  dataVersions.set(db.getExecutor().adapter, version);
}

export interface ReadCache<V> {
  /** The value kept for `key` if nothing changed since it was read. */
  get(key: string): V | undefined;
  /**
   * Reads the value (when not kept) and keeps it, only if no change happened while it was read:
   * a value read across a change is answered but not kept.
   */
  getOrRead(key: string, read: () => Promise<V>): Promise<V>;
}

export function createReadCache<V>(db: Kysely<any>, options: { maxEntries: number }): ReadCache<V> {
  const version = dataVersions.get(db.getExecutor().adapter);
  if (!version) return { get: () => undefined, getOrRead: (_key, read) => read() };

  let entries = new Map<string, V>();
  let entriesVersion = version.current();
  const currentEntries = (): Map<string, V> => {
    const now = version.current();
    if (now !== entriesVersion) {
      entries = new Map();
      entriesVersion = now;
    }
    return entries;
  };

  return {
    get: (key) => currentEntries().get(key),
    async getOrRead(key, read) {
      const kept = currentEntries().get(key);
      if (kept !== undefined) return kept;
      const readAt = entriesVersion;
      const value = await read();
      const now = currentEntries();
      if (entriesVersion === readAt) {
        if (now.size >= options.maxEntries) now.delete(now.keys().next().value!);
        now.set(key, value);
      }
      return value;
    },
  };
}
