/**
 * The pace of streams catching up. A stream that is behind reads page after page without waiting
 * for new events; hundreds of streams reading a long feed from its start would take every core
 * and much memory from the requests of everyone else (200 streams over 26,000 events: creates went
 * from 14 to 390 ms at p50). So each page a stream reads while it catches up takes a turn: at most
 * CATCH_UP_PAGES_PER_SECOND per process and KEY_PAGES_PER_SECOND per key, shared by its streams.
 * A stream that is caught up waits for new events as before and takes no turn: the live tail is
 * never slowed. A stream's first page takes a turn too (200 streams opened at once would otherwise
 * read 200 pages in one burst); a stream opened alone takes its turn at once. Long polls are
 * requests, counted by the rate limits instead.
 *
 * Each queue is a time: when its next turn is free. A turn waits for the key's next free time, then
 * books the process's next free time from then, in the order streams get there. The map of keys keeps only keys
 * whose next turn is in the future, so it is bounded by the streams catching up.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Pages a process reads for catching-up streams per second, all keys together (100 events a page at most). */
export const CATCH_UP_PAGES_PER_SECOND = 100;
/** Pages per second for the catching-up streams of one key, on one process. */
export const KEY_PAGES_PER_SECOND = 20;

export interface CatchUpPace {
  /** Waits for the key's next turn; false when `signal` aborted first (the turn is given up). */
  turn(keyId: number, signal: AbortSignal): Promise<boolean>;
}

export interface CatchUpPaceOptions {
  pagesPerSecond?: number;
  keyPagesPerSecond?: number;
  /** Tests only: the clock, and the wait (resolves true after `ms`, false if `signal` aborts first). */
  now?: () => number;
  wait?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

export function createCatchUpPace(options: CatchUpPaceOptions = {}): CatchUpPace {
  const now = options.now ?? performance.now.bind(performance);
  const wait = options.wait ?? sleepUnlessAborted;
  const processGap = 1000 / (options.pagesPerSecond ?? CATCH_UP_PAGES_PER_SECOND);
  const keyGap = 1000 / (options.keyPagesPerSecond ?? KEY_PAGES_PER_SECOND);
  let processNext = 0;
  const keyNext = new Map<number, number>();

  return {
    async turn(keyId, signal) {
      const at = now();
      if (keyNext.size > 1000) for (const [key, next] of keyNext) if (next <= at) keyNext.delete(key);
      // First the key's turn, then the process's next free one from then: booking the process's turn
      // at the key's time would leave the process's turns before it unused by every other key.
      const keySlot = Math.max(at, keyNext.get(keyId) ?? 0);
      keyNext.set(keyId, keySlot + keyGap);
      if (keySlot > at && !(await wait(keySlot - at, signal))) return false;
      const ready = now();
      const slot = Math.max(ready, processNext);
      processNext = slot + processGap;
      return slot > ready ? wait(slot - ready, signal) : !signal.aborted;
    },
  };
}
