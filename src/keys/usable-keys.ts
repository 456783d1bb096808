/**
 * The SHA-256 hashes of the usable keys, kept in memory so a token no usable key matches is
 * turned away without a database lookup of its own: random tokens, and also tokens that copy a
 * real key's display prefix (shown in logs and listings) with a guessed secret.
 *
 * The set is read whole, by one shared query, at most once per `minIntervalMs`. A caller whose
 * hash is not in it waits for the next read that starts after it asked (the key may have been
 * made a moment ago, by another process), so a new key is never refused, only delayed by up to
 * about one interval; every caller waiting at the same time shares that one read. Made-up tokens
 * therefore cost the database at most one query per interval, however many arrive. The set holds
 * one 64-character hash per usable key (about 10 MB for 100,000 keys), which only the operator can make.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface UsableKeySet {
  /** True when a usable key had this hash at the last read. */
  has(secretHash: string): boolean;
  /** Settles once a read that started after this call has finished (rejects if that read failed). */
  refreshed(): Promise<void>;
}

/** How often at most the set is read again by default: the "about a second" the documentation promises a new key waits at worst. */
export const USABLE_KEYS_REFRESH_MS = 1000;

export function createUsableKeySet(load: () => Promise<Iterable<string>>, options: { minIntervalMs?: number } = {}): UsableKeySet {
  const minIntervalMs = options.minIntervalMs ?? USABLE_KEYS_REFRESH_MS;
  let hashes = new Set<string>();
  let lastStart = -Infinity;
  /** The read that callers join: not started yet, so it will see anything made before they asked. */
  let upcoming: Promise<void> | undefined;
  /** The read in progress, if any; it may have started before a new caller asked. */
  let inProgress: Promise<void> | undefined;

  const readAfterTurn = async () => {
    // Always yield first, so `upcoming` is set before the code below can clear it.
    await Promise.resolve();
    if (inProgress) await inProgress;
    const wait = lastStart + minIntervalMs - performance.now();
    if (wait > 0) await delay(wait);
    // From here on, a new caller may have asked after this read began: it needs the next one.
    upcoming = undefined;
    lastStart = performance.now();
    const read = load().then((loaded) => {
      hashes = new Set(loaded);
    });
    const settled = read.then(
      () => undefined,
      () => undefined,
    );
    inProgress = settled;
    void settled.then(() => {
      if (inProgress === settled) inProgress = undefined;
    });
    await read;
  };

  return {
    has: (secretHash) => hashes.has(secretHash),
    refreshed() {
      upcoming ??= readAfterTurn();
      return upcoming;
    },
  };
}
