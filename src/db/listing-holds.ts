/**
 * Tells of the transactions of this database that hold the PostgreSQL listings back. The
 * listings keep only ids below the first one a running transaction of this database could still
 * commit (db/visible-bound.ts), so one left open (a forgotten psql session, a prepared
 * transaction, a long migration) keeps every new pet and order out of them for as long as it runs.
 * The service's own transactions end within DATABASE_STATEMENT_TIMEOUT_MS; anything older than
 * PG_HOLD_WARN_MS is logged once per process, with what the server shows the service's role,
 * counted in `animal_store_db_listings_held_seconds`, and shown in /readyz's body (which stays
 * 200: a fleet must not leave its load balancer over it). docs/operations.md says how to end it.
 *
 * Each process checks on a timer (twice per PG_HOLD_WARN_MS, at most once a second): one read of
 * pg_stat_activity and pg_prepared_xacts. SQLite has one writer at a time: nothing to watch.
 */
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { isPostgres } from './dialect.js';
import { errorCodeOf } from './error-code.js';
import { readRunningTransactions, type RunningTransaction } from './visible-bound.js';

/** The message of the warning; tests and docs look for it. */
export const HOLD_WARNING = 'a transaction of this database holds back the listings';

/** The message logged once when the server refuses the service's role the views the check reads. */
export const HOLD_WATCH_REFUSED = 'the server refuses this role the views that show what holds the listings back: holds are not watched';

export const HOLD_METRIC = 'animal_store_db_listings_held_seconds';

/** A transaction of this database that has held the listings back longer than PG_HOLD_WARN_MS. */
interface ListingHold {
  /** A session's server process id (absent for a prepared transaction); not `pid`, which log lines give to the service's own process. */
  backendPid?: number;
  /** A prepared transaction's name. */
  gid?: string;
  ageMs: number;
}

export interface ListingHolds {
  /** Checks now (the timer does it on its own), after any check already running. */
  checkNow(): Promise<void>;
  /** The age of the oldest transaction of this database running at the last check; 0 when none. */
  oldestAgeMs(): number;
  /** The transactions older than PG_HOLD_WARN_MS at the last check, oldest first (empty when none). */
  overdue(): ListingHold[];
  close(): Promise<void>;
}

export interface ListingHoldsOptions {
  warnMs: number;
  /** Where the warning goes (the app's logger). */
  log: { warn(fields: object, message: string): void };
  /** The clock, in epoch milliseconds. */
  now?: () => number;
}

export function watchListingHolds(db: Kysely<any>, options: ListingHoldsOptions): ListingHolds {
  if (!isPostgres(db)) return { checkNow: async () => {}, oldestAgeMs: () => 0, overdue: () => [], close: async () => {} };
  const now = options.now ?? Date.now;
  /** When this process first saw each transaction, for roles the server does not show its start to. */
  const firstSeen = new Map<string, number>();
  const warned = new Set<string>();
  let oldest = 0;
  let overdue: ListingHold[] = [];
  let refusalTold = false;

  const check = async () => {
    let transactions: RunningTransaction[];
    try {
      transactions = (await readRunningTransactions(db)).filter((transaction) => transaction.here !== false);
    } catch (error) {
      // Refused (42501: pg_stat_activity or pg_prepared_xacts revoked from the role): said once,
      // since the gauge's 0 would otherwise claim no hold. Any other failure is the database
      // away, told elsewhere (503s, /readyz); the next check tries again.
      if (errorCodeOf(error) === '42501' && !refusalTold) {
        refusalTold = true;
        options.log.warn({ reason: (error as Error).message, hint: 'grant select on pg_stat_activity and pg_prepared_xacts to the role (docs/operations.md, "Held-back listings")' }, HOLD_WATCH_REFUSED);
      }
      return;
    }
    const at = now();
    const current = new Set<string>();
    const holds = transactions.map((transaction) => {
      const key = transaction.gid === null ? `${transaction.pid}:${transaction.xid}` : `gid:${transaction.gid}`;
      current.add(key);
      if (!firstSeen.has(key)) firstSeen.set(key, at);
      const fromServer = transaction.ageMs !== null;
      return { key, transaction, ageMs: Math.max(0, Math.round(fromServer ? transaction.ageMs! : at - firstSeen.get(key)!)), fromServer };
    });
    for (const key of firstSeen.keys()) if (!current.has(key)) firstSeen.delete(key);
    for (const key of warned) if (!current.has(key)) warned.delete(key);
    holds.sort((a, b) => b.ageMs - a.ageMs);
    oldest = holds[0]?.ageMs ?? 0;
    const late = holds.filter((hold) => hold.ageMs > options.warnMs);
    overdue = late.map(({ transaction, ageMs }) => (transaction.gid === null ? { backendPid: transaction.pid!, ageMs } : { gid: transaction.gid, ageMs }));
    for (const { key, transaction, ageMs, fromServer } of late) {
      if (warned.has(key)) continue;
      warned.add(key);
      options.log.warn(
        {
          ...(transaction.gid === null
            ? { backendPid: transaction.pid, applicationName: transaction.applicationName, state: transaction.state ?? undefined }
            : { gid: transaction.gid }),
          xid: transaction.xid,
          ageMs,
          ageFrom: fromServer ? 'the server' : 'first seen by this process',
          warnMs: options.warnMs,
          hint: holdHint(transaction),
        },
        HOLD_WARNING,
      );
    }
  };

  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const checkNow = () => {
    running = running.then(async () => {
      busy = true;
      try {
        await check();
      } finally {
        busy = false;
      }
    });
    return running;
  };
  const timer = setInterval(() => {
    if (!busy) void checkNow();
  }, checkIntervalMs(options.warnMs));
  timer.unref();

  return {
    checkNow,
    oldestAgeMs: () => oldest,
    overdue: () => overdue,
    // A check still running is not waited for: with the database away it could take the whole
    // statement timeout, and its failure is ignored anyway.
    async close() {
      clearInterval(timer);
    },
  };
}

/**
 * What the warning tells the operator to run: SQL to paste into psql. A gid is anyone's text (who
 * prepared the transaction chose it), so it is written as one SQL literal, quotes doubled.
 */
export function holdHint(transaction: Pick<RunningTransaction, 'gid' | 'pid'>): string {
  return transaction.gid === null
    ? `new pets and orders stay out of the listings until it ends; end it with select pg_terminate_backend(${transaction.pid}) (docs/operations.md, "Held-back listings")`
    : `new pets and orders stay out of the listings until it ends; end it with ROLLBACK PREPARED '${transaction.gid.replaceAll("'", "''")}' (docs/operations.md, "Held-back listings")`;
}

/** Twice per PG_HOLD_WARN_MS, so a hold is told within 1.5 times it; at most once a second, at least every 10 ms. */
function checkIntervalMs(warnMs: number): number {
  return Math.min(1000, Math.max(10, Math.floor(warnMs / 2)));
}

/**
 * `animal_store_db_listings_held_seconds`: the age of the oldest transaction of this database
 * running at the last check (0 when none). Under --workers each worker checks for itself and the
 * primary keeps the largest, the oldest hold any of them saw, not a sum.
 */
export function registerListingHoldMetrics(registry: Registry, holds: Pick<ListingHolds, 'oldestAgeMs'>): void {
  // Apps built on shared metrics (a test's, a worker's) register it once.
  if (registry.getSingleMetric(HOLD_METRIC)) return;
  new Gauge({
    name: HOLD_METRIC,
    help: 'Age of the oldest transaction of this PostgreSQL database still running, which holds new pets and orders out of the listings until it ends (0 when none); the largest across workers.',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(holds.oldestAgeMs() / 1000);
    },
  });
}
