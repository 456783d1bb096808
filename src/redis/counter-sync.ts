/**
 * Shares window counters across a fleet, as Kong's `sync_rate` does: every `intervalMs` this
 * process pushes what it counted since the last push (INCRBY on the window's key, which expires
 * with the window) and reads back the fleet's total, all in one pipeline. Requests never wait
 * for Redis; they decide on the last total read plus what this process counted since.
 *
 * A push that fails (Redis down, or slower than its command timeout) is put back and sent with
 * the next one, so the fleet's count is complete again once Redis answers.
 */
import type { WindowCounters } from '../access/window-counters.js';
import { WINDOW_MS } from '../access/window-counters.js';
import type { RedisLink } from './redis-link.js';

/**
 * Windows pushed per counter and sync, at most. Clients from many addresses (an IPv6 prefix is
 * cheap) must not make one sync a pipeline so long it blocks this process or Redis; windows left
 * over keep their counts and go with the next syncs, which only delays what the fleet sees of them.
 */
const MAX_PUSHES_PER_SYNC = 5_000;

export interface CounterSync {
  /**
   * Runs one push now (tests; the timer runs them otherwise). Resolves to whether Redis took
   * every count pushed (true when there was nothing to push): a failed push is kept for the next.
   */
  syncNow(): Promise<boolean>;
  stop(): void;
}

export function syncCounters(link: RedisLink, counters: Record<string, WindowCounters>, options: { intervalMs: number; now: () => number }): CounterSync {
  let running: Promise<boolean> | undefined;

  const syncOnce = async (): Promise<boolean> => {
    await link.firstAttempt;
    const at = options.now();
    const batches = Object.entries(counters).map(([name, windows]) => ({ name, windows, pushes: windows.drain(at, MAX_PUSHES_PER_SYNC) }));
    const total = batches.reduce((sum, batch) => sum + batch.pushes.length, 0);
    if (total === 0) return true;
    const pipeline = link.commands.pipeline();
    for (const { name, pushes } of batches) {
      for (const push of pushes) {
        const key = `${link.keyPrefix}rl:${name}:${push.windowStart}:${push.client}`;
        pipeline.incrby(key, push.increment);
        // Kept a little past its window, so an instance whose clock lags still finds it.
        pipeline.pexpire(key, WINDOW_MS * 2);
      }
    }
    let results: [Error | null, unknown][] | null;
    try {
      results = await pipeline.exec();
    } catch (error) {
      results = null;
      link.report(false, error);
    }
    let i = 0;
    let failure: unknown;
    for (const { windows, pushes } of batches) {
      for (const push of pushes) {
        const [error, value] = results?.[i] ?? [new Error('no answer'), undefined];
        i += 2;
        if (error || typeof value !== 'number') {
          failure ??= error;
          windows.restore(push);
        } else {
          windows.settle(push, value);
        }
      }
    }
    const pushed = results !== null && failure === undefined;
    link.report(pushed, failure);
    return pushed;
  };

  const timer = setInterval(() => {
    // A sync still running (a slow Redis) is not joined by another: the next tick catches up.
    if (running) return;
    running = syncOnce().finally(() => (running = undefined));
  }, options.intervalMs);
  timer.unref();

  return {
    async syncNow() {
      while (running) await running;
      running = syncOnce().finally(() => (running = undefined));
      return running;
    },
    stop: () => clearInterval(timer),
  };
}
