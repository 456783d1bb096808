/**
 * The "feed may have grown" signal of one process, which every waiting long poll and open stream
 * of the events feed shares (events.live.ts). No waiter ever queries the database on its own to
 * learn whether something happened: one check for all of them reads the feed's frontier (the
 * largest position given: events.repository.ts `readFeedFrontier`), and only
 * when it moved are the waiters woken, each then reading its page once (readers at the same place
 * share one read: events.live.ts `sharedPageReads`).
 *
 * What starts a check, and only while someone waits:
 * - a commit of this process (db/commit-listeners.ts): at once;
 * - a commit of another process, told over the fleet channel (events.fleet-channel.ts: Redis
 *   pub/sub when REDIS_URL is set, the cluster primary's relay under --workers): within a few ms;
 * - a timer, every RECHECK_MS, one per process: a wake-up can come before the event is readable
 *   (on PostgreSQL an event shows once the sequencer has numbered it, events.sequencer.ts), or a
 *   message can be lost (Redis down), and the timer catches both, within about a second.
 * Checks never overlap: one asked for while another runs runs once after it.
 *
 * A reader watches from before its first read to its end (`watch`), and checks run while someone
 * watches, also while every watcher is reading rather than waiting. It takes a ticket (the count of
 * moves seen) before reading each page, and waits for a move after that ticket: a move seen
 * between its read and its wait is not missed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { onCommit } from '../db/commit-listeners.js';
import type { Database } from '../db/database.js';
import type { FeedChangeChannel } from './events.fleet-channel.js';
import { readFeedFrontier } from './events.repository.js';

/** How often each process looks at the feed for its waiters, whatever it was told. */
const RECHECK_MS = 1000;

/** One reader's view of the signal, from its first read to its end. */
export interface FeedWatch {
  /** The moves seen so far: take it before reading a page, then wait with `changedSince`. */
  ticket(): number;
  /**
   * Resolves true once the feed moved after `ticket` (at once if it already has), false once the
   * watch's `until` aborts or the app stops. One wait at a time.
   */
  changedSince(ticket: number): Promise<boolean>;
  /** The reader is done: checks stop once nobody watches. */
  stop(): void;
}

export interface FeedWakeup {
  /** A reader's watch, until `until` aborts (its client gone, its deadline) or it stops. */
  watch(until: AbortSignal): FeedWatch;
  /** Aborted when the app stops: every waiter ends then. */
  readonly stopping: AbortSignal;
  /** Stops waking: aborts `stopping`, stops the timer and the listeners. */
  close(): void;
}

export interface FeedWakeupOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Tells the other processes of a change, and hears theirs; none when this process is alone. */
  channel?: FeedChangeChannel | undefined;
  recheckMs?: number;
}

export function createFeedWakeup(options: FeedWakeupOptions): FeedWakeup {
  const { db, log, channel } = options;
  /** The waits in progress: each ends with true when the feed moves, false when the app stops. */
  const waiters = new Set<(moved: boolean) => void>();
  const stopping = new AbortController();
  let moves = 0;
  let frontier: string | undefined;
  let checking = false;
  let checkAgain = false;
  let failing = false;
  let watching = 0;

  const wakeAll = () => {
    const woken = [...waiters];
    waiters.clear();
    for (const end of woken) end(true);
  };

  const runChecks = async () => {
    checking = true;
    try {
      do {
        checkAgain = false;
        const now = await readFeedFrontier(db);
        failing = false;
        if (now !== frontier) {
          frontier = now;
          moves += 1;
          wakeAll();
        }
      } while (checkAgain && watching > 0);
    } catch (error) {
      // The waiters keep waiting (their own deadline ends them); the next tick tries again.
      if (!failing) log.warn({ err: error }, 'could not look at the events feed for waiting readers; trying again every second');
      failing = true;
    } finally {
      checking = false;
    }
  };
  const check = () => {
    if (watching === 0 || stopping.signal.aborted) return;
    if (checking) checkAgain = true;
    else void runChecks();
  };

  const timer = setInterval(check, options.recheckMs ?? RECHECK_MS);
  // The timer alone never keeps a process alive.
  timer.unref();
  const stopListening = onCommit(db, () => {
    check();
    channel?.publish();
  });
  channel?.subscribe(check);

  return {
    watch(until) {
      watching += 1;
      let stopped = false;
      /** How the wait in progress ends, if one is. */
      let waiting: ((moved: boolean) => void) | undefined;
      const end = (moved: boolean) => {
        const resolve = waiting;
        waiting = undefined;
        waiters.delete(end);
        resolve?.(moved);
      };
      // One listener for the watch's life, not one per wait: a stream waits once per commit.
      const abort = () => end(false);
      until.addEventListener('abort', abort, { once: true });
      return {
        ticket: () => moves,
        changedSince(ticket) {
          if (moves > ticket) return Promise.resolve(true);
          if (stopped || until.aborted || stopping.signal.aborted) return Promise.resolve(false);
          // One wait at a time: one still pending ends first.
          end(false);
          return new Promise((resolve) => {
            waiting = resolve;
            waiters.add(end);
          });
        },
        stop() {
          if (!stopped) {
            watching -= 1;
            until.removeEventListener('abort', abort);
            end(false);
          }
          stopped = true;
        },
      };
    },
    stopping: stopping.signal,
    close() {
      stopping.abort();
      const ending = [...waiters];
      waiters.clear();
      for (const end of ending) end(false);
      clearInterval(timer);
      stopListening();
      channel?.close();
    },
  };
}
