/**
 * A key's last use, gathered in memory and written to the database in batches: one statement per
 * flush (per 500 keys used since the last one), however many requests came, so a busy key costs
 * the database nothing per request. The last flush runs on a graceful stop; a crash loses at
 * most one interval of last-use times, which only inform the operator.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { recordKeysLastUsed } from './keys.repository.js';

/** Keys per statement: well under SQLite's and PostgreSQL's limits on bound parameters. */
const KEYS_PER_STATEMENT = 500;

export interface KeyUsage {
  /** A function property, not a method: it is handed on as the key verifier's `onUse` callback. */
  record: (keyId: number, at: number) => void;
  /** Writes what was gathered; a failed write is kept for the next flush. */
  flush(): Promise<void>;
  /** Stops the timer and flushes one last time. */
  close(): Promise<void>;
}

export function createKeyUsage(db: Kysely<Database>, options: { flushMs: number; onError: (error: unknown) => void }): KeyUsage {
  let pending = new Map<number, number>();
  let flushing: Promise<void> | undefined;

  const writeOnce = async () => {
    const batch = pending;
    pending = new Map();
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += KEYS_PER_STATEMENT) {
      const chunk = new Map(ids.slice(i, i + KEYS_PER_STATEMENT).map((id) => [id, batch.get(id)!]));
      try {
        await recordKeysLastUsed(db, chunk);
      } catch (error) {
        for (const [id, at] of chunk) if ((pending.get(id) ?? -Infinity) < at) pending.set(id, at);
        options.onError(error);
      }
    }
  };
  const flush = async () => {
    while (flushing) await flushing;
    if (pending.size === 0) return;
    flushing = writeOnce().finally(() => (flushing = undefined));
    await flushing;
  };

  const timer = setInterval(() => void flush(), options.flushMs);
  timer.unref();

  return {
    record(keyId, at) {
      if ((pending.get(keyId) ?? -Infinity) < at) pending.set(keyId, at);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
