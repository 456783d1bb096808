/**
 * Fixed one-minute windows, one count per client, counted in this process's memory and, when a
 * fleet shares its counts (redis/counter-sync.ts), merged with the other instances' counts.
 *
 * A window remembers what this process counted and has not pushed yet (`unsynced`) and the
 * fleet's total at the last synchronisation (`fleet`, which includes what this process pushed
 * before). Decisions use `fleet + unsynced`: never a round trip on the request path. Without a
 * sync, `fleet` stays 0 and the counts are this process's alone, as before.
 */
export const WINDOW_MS = 60_000;
/** Beyond this many counters in memory, the stalest are forgotten first. */
const MAX_COUNTERS = 100_000;

interface Window {
  start: number;
  /** Counted here and not yet pushed. */
  unsynced: number;
  /** Pushed by a sync still in flight: still counted, so a sync never opens a gap. */
  inFlight: number;
  /** The fleet's total at the last sync, this process's pushed counts included. */
  fleet: number;
  /** Whether the window was used since the last sync, so the sync reads the fleet's total for it. */
  touched: boolean;
}

export interface WindowState {
  exhausted: boolean;
  remaining: number;
  resetSeconds: number;
}

/** What one sync pushes for one window, and how it reports the fleet total back. */
export interface PendingPush {
  client: string;
  windowStart: number;
  increment: number;
}

export class WindowCounters {
  private readonly windows = new Map<string, Window>();

  constructor(readonly limit: number) {}

  /** Counts one request and tells whether it is over the limit. */
  take(client: string, at: number): WindowState {
    const window = this.current(client, at);
    window.unsynced += 1;
    window.touched = true;
    const count = countOf(window);
    return this.describe(count, window.start, at, count > this.limit);
  }

  /** Tells whether the client has used up its allowance, without counting. */
  peek(client: string, at: number): WindowState {
    const start = windowStart(at);
    const window = this.windows.get(client);
    const count = window && window.start === start ? countOf(window) : 0;
    if (window && window.start === start) window.touched = true;
    return this.describe(count, start, at, count >= this.limit);
  }

  /**
   * The windows a sync must send (at most `max`; the rest wait for the next), marking their counts as pushed. `settle` must be called with
   * each one's fleet total when the sync succeeds, or `restore` when it fails, so nothing is lost.
   */
  drain(at: number, max = Infinity): PendingPush[] {
    const start = windowStart(at);
    const pushes: PendingPush[] = [];
    for (const [client, window] of this.windows) {
      if (pushes.length >= max) break;
      if (window.start !== start || (!window.touched && window.unsynced === 0)) continue;
      pushes.push({ client, windowStart: window.start, increment: window.unsynced });
      window.inFlight += window.unsynced;
      window.unsynced = 0;
      window.touched = false;
    }
    return pushes;
  }

  /** Records the fleet's total after a successful push. */
  settle(push: PendingPush, fleetTotal: number): void {
    const window = this.windows.get(push.client);
    if (!window || window.start !== push.windowStart) return;
    window.inFlight -= push.increment;
    window.fleet = Math.max(window.fleet, fleetTotal);
  }

  /** Puts back a push that failed, so the next sync sends it (counting is shared again when the store returns). */
  restore(push: PendingPush): void {
    const window = this.windows.get(push.client);
    if (!window || window.start !== push.windowStart) return;
    window.inFlight -= push.increment;
    window.unsynced += push.increment;
    window.touched = true;
  }

  private current(client: string, at: number): Window {
    const start = windowStart(at);
    let window = this.windows.get(client);
    if (!window || window.start !== start) {
      // Re-inserting moves the client to the end, so the first entries are always the stalest.
      this.windows.delete(client);
      for (const stale of this.windows.keys()) {
        if (this.windows.size < MAX_COUNTERS) break;
        this.windows.delete(stale);
      }
      window = { start, unsynced: 0, inFlight: 0, fleet: 0, touched: false };
      this.windows.set(client, window);
    }
    return window;
  }

  private describe(count: number, start: number, at: number, exhausted: boolean): WindowState {
    return {
      exhausted,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.ceil((start + WINDOW_MS - at) / 1000),
    };
  }
}

/** The fleet's total as last read, plus what this process counted since (pushed or not). */
function countOf(window: Window): number {
  return window.fleet + window.inFlight + window.unsynced;
}

function windowStart(at: number): number {
  return at - (at % WINDOW_MS);
}
