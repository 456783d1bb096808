/**
 * The webhook dispatcher: runs in every process of the service, off the request path, from the
 * app's start to its close. Each round it
 * 1. fans new events out into deliveries (webhook-fan-out.ts), batch after batch while full;
 * 2. claims due deliveries in one short transaction, setting a lease (WEBHOOK_LEASE_SECONDS) by the
 *    database's clock: PostgreSQL `FOR UPDATE SKIP LOCKED`, so instances take different rows;
 *    SQLite's write transaction, so the processes on one file claim one at a time. Claims go
 *    endpoint by endpoint (webhook-claims.repository.ts) and are fair: at most PER_ENDPOINT_CLAIM of
 *    an endpoint, and none of one holding its share here, whose backlog the claim never reads;
 * 3. sends each claimed delivery outside any transaction, reading its endpoint again just before
 *    (URL, secrets, status, types), and records its outcome (webhook-attempt.ts). The lease bounds
 *    the attempt: it starts only if its timeout and a second fit in what is left of the lease, and
 *    after the endpoint's read is given only what is then left (webhook-lease.ts), so no attempt is
 *    out once another dispatcher may claim its delivery.
 * Rounds follow one another while there is work, and otherwise every POLL_MS (500 ms), or at once
 * when this process adds a delivery (`kick`): events written by other processes wait for the next
 * poll. A round that fails (the database is down) makes the next wait twice as long, up to
 * BACKOFF_CAP_MS, one warning per round, until one succeeds.
 *
 * Isolation (a slow or hanging receiver delays nobody else): an endpoint holds at most
 * PER_ENDPOINT_HELD deliveries in a process, so the held ones of any set of endpoints never fill
 * MAX_HELD; sends go round-robin across endpoints, PER_ENDPOINT_IN_FLIGHT at most to one, and of
 * the WEBHOOK_MAX_SOCKETS in flight (each send holds one socket to its end) `reservedSlots` only
 * go to an endpoint with none in flight, so an endpoint gets a slot at once however many others
 * hang: with the default, all WEBHOOK_ENDPOINTS_MAX of them (webhook-send-queue.ts).
 *
 * Sockets and descriptors: a delivery that waits for a socket of the process (not for its endpoint's
 * own sends), or whose connection fails for want of file descriptors (EMFILE, ENFILE: a failed
 * attempt, retried on the schedule), is counted, and logged at warn at most once a minute per
 * reason with the count since that reason's last line.
 *
 * A process killed mid-send leaves its leases to expire: then any dispatcher claims the deliveries
 * again and sends them (at least once). Closing the app stops the rounds, aborts the sends in flight
 * and gives their deliveries back (no attempt counted), waiting for that at most CLOSE_WAIT_MS
 * before the database closes: a silent database leaves the rest to the leases.
 */
import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/dialect.js';
import { attemptDelivery, type AttemptContext } from './webhook-attempt.js';
import { anyDeliveryDue, claimDueDeliveries } from './webhook-claims.repository.js';
import { releaseDeliveries } from './webhook-dispatch.repository.js';
import { WEBHOOK_ENDPOINTS_MAX } from './webhook-endpoints.limits.js';
import { createSendQueue } from './webhook-send-queue.js';
import { purgeOldDeliveries } from './webhook-deliveries.retention.js';
import { fanOutBatch, hasEventsToFanOut, passOverWhenNobodyReceives } from './webhook-fan-out.js';
import { scheduledDelayMs } from './webhook-retry-schedule.js';
import { attemptTimeoutMs, minimumLeaseSeconds, RECORD_MARGIN_MS } from './webhook-lease.js';
import { createWebhookSender } from './webhook-sender.js';
import type { WebhookMetrics } from './webhooks.metrics.js';

const POLL_MS = 500;
/** Consecutive failed rounds wait twice as long each time, up to this (then a round every 30 s). */
const BACKOFF_CAP_MS = 30_000;
/** How long closing waits for a round or a give-back that a stalled database holds: past it, the leases expire on their own. */
const CLOSE_WAIT_MS = 5_000;
/** Sends in flight to one endpoint per process. */
export const PER_ENDPOINT_IN_FLIGHT = 8;
/** Deliveries one endpoint may hold in a process (waiting for a slot or in flight), and one claim takes of it at most. */
const PER_ENDPOINT_HELD = 64;
const PER_ENDPOINT_CLAIM = 32;
/** What every endpoint may hold at once: held rows of some endpoints never leave others without room. */
const MAX_HELD = WEBHOOK_ENDPOINTS_MAX * PER_ENDPOINT_HELD;
/** Deliveries claimed at once. */
const CLAIM_BATCH = 100;
/** Most fan-out batches per round, so claims are not starved by a backlog of events. */
const FAN_OUT_BATCHES_PER_ROUND = 20;
const PURGE_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;
/** The most often a warning says sends wait for a socket, or fail for want of descriptors (the counter counts each). */
const REFUSED_LOG_INTERVAL_MS = 60_000;

/**
 * Of `maxSockets` sends in flight, those only an endpoint with none in flight may take: one for every
 * endpoint a store may have, or half when the cap is lower, so the others keep half to share.
 */
function reservedSlots(maxSockets: number): number {
  return Math.min(WEBHOOK_ENDPOINTS_MAX, Math.floor(maxSockets / 2));
}

/** Tests only: knobs of the dispatcher (the defaults are what the service runs with). */
export interface DispatcherTestOptions {
  /** The attempt's timeout instead of the lease's share (webhook-lease.ts). */
  timeoutMs?: number;
  /** The DNS lookup of every connection (a stub answering a private address, say). */
  lookup?: LookupFunction;
  pollMs?: number;
  /** How long closing waits for a stalled database instead of CLOSE_WAIT_MS. */
  closeWaitMs?: number;
  /** Called as each round starts, before its first query (every round asks the database something). */
  roundStarted?: () => void;
}

export interface DispatcherOptions {
  db: Kysely<Database>;
  now: () => number;
  metrics: WebhookMetrics;
  allowedHosts: readonly string[];
  scheduleSeconds: readonly number[];
  leaseSeconds: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: how long an attempt's read or record may take of its lease. */
  statementTimeoutMs: number;
  /** WEBHOOK_MAX_SOCKETS: the sends in flight, and the sockets open, in the process. */
  maxSockets: number;
  retentionDays: number;
  test?: DispatcherTestOptions | undefined;
}

export interface WebhookDispatcher {
  /** Starts a round now (a delivery was just added in this process). */
  kick(): void;
}

/** Settles with true once `work` has, or with false after `ms`, whichever comes first (`work` is left running). */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerWebhookDispatcher(app: FastifyInstance, options: DispatcherOptions): WebhookDispatcher {
  const { db, now, test } = options;
  // config.ts refuses such a lease already; this guards the other callers.
  const shortestLease = minimumLeaseSeconds(options.statementTimeoutMs);
  if (options.leaseSeconds < shortestLease)
    throw new Error(
      `the webhook lease must be at least ${shortestLease} s (WEBHOOK_LEASE_SECONDS) with a statement timeout of ${options.statementTimeoutMs} ms`,
    );
  const pollMs = test?.pollMs ?? POLL_MS;
  const leaseMs = options.leaseSeconds * 1000;
  // An attempt is always over, answered or not, well before its lease ends, so its outcome is written while the lease holds.
  const timeoutMs = test?.timeoutMs ?? attemptTimeoutMs(leaseMs, options.statementTimeoutMs);
  const { maxSockets } = options;
  const sender = createWebhookSender({ allowedHosts: options.allowedHosts, timeoutMs, maxSockets, now, lookup: test?.lookup });
  const instance = randomUUID();
  const stop = new AbortController();
  let claims = 0;
  let round: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPurge = 0;
  /** Rounds failed in a row, and until when (monotonic clock) no round starts. */
  let failures = 0;
  let pausedUntil = 0;
  /** Deliveries dropped unsent since the last warning (see `canStart`, and `attemptDelivery` after its endpoint's read). */
  let dropped = 0;
  const unstarted = () => {
    if (stop.signal.aborted) return;
    dropped++;
    options.metrics.unstarted.inc();
  };
  const refusedSince = { sockets: { count: 0, loggedAt: -Infinity }, descriptors: { count: 0, loggedAt: -Infinity } };
  const refusedSend = (reason: 'sockets' | 'descriptors', count = 1) => {
    options.metrics.sendsRefused.inc({ reason }, count);
    const since = refusedSince[reason];
    since.count += count;
    if (performance.now() - since.loggedAt < REFUSED_LOG_INTERVAL_MS) return;
    since.loggedAt = performance.now();
    if (reason === 'sockets') {
      app.log.warn(
        { count: since.count, maxSockets },
        `webhook sends wait for a socket: the process's ${maxSockets} (WEBHOOK_MAX_SOCKETS) are in use, or kept for endpoints with no send in flight; receivers answer slowly, or many are busy`,
      );
    } else {
      app.log.warn(
        { count: since.count, maxSockets },
        'webhook connections failed for want of file descriptors (EMFILE or ENFILE); they are retried on the schedule: raise the open-files limit (ulimit -n) or lower WEBHOOK_MAX_SOCKETS',
      );
    }
    since.count = 0;
  };
  const context: AttemptContext = {
    db,
    sender,
    timeoutMs,
    unstarted,
    refusedSend,
    now,
    scheduleSeconds: options.scheduleSeconds,
    metrics: options.metrics,
    log: app.log,
  };

  const queue = createSendQueue({
    maxInFlight: maxSockets,
    perEndpoint: PER_ENDPOINT_IN_FLIGHT,
    reserved: reservedSlots(maxSockets),
    // Started only if the attempt, timed out at worst, ends with a second of its lease to spare for
    // its record. The lease is measured on this process's monotonic clock from before the claim.
    canStart: (held) => !stop.signal.aborted && performance.now() + timeoutMs + RECORD_MARGIN_MS <= held.leaseDeadline,
    dropped: unstarted,
    noSocket: (count) => refusedSend('sockets', count),
    send: (held) => attemptDelivery(context, held, stop.signal),
    // Claims again as the lines fall to half, and when they are empty: once per crossing, not after every send.
    sent: (held) => {
      if (held.total === 0 || held.endpoint === 0 || held.total === MAX_HELD / 2 - 1 || held.endpoint === PER_ENDPOINT_HELD - PER_ENDPOINT_CLAIM) kick();
    },
  });

  const firstAttemptAt = () => now() + (scheduledDelayMs(options.scheduleSeconds, 0) ?? 0);

  /**
   * New events to deliveries: once per poll (a round started by a send's end or a claim of a full
   * batch does not look again), and again at once while batches come back full. Answers whether a
   * backlog is left.
   */
  let lastFanOut = 0;
  let fanOutBacklog = false;
  const fanOut = async (): Promise<boolean> => {
    if (!fanOutBacklog && Date.now() - lastFanOut < pollMs) return false;
    lastFanOut = Date.now();
    if ((await passOverWhenNobodyReceives(db)) || !(await hasEventsToFanOut(db))) return false;
    for (let batch = 0; batch < FAN_OUT_BATCHES_PER_ROUND && !stop.signal.aborted; batch++) {
      const result = await fanOutBatch(db, { now: now(), firstAttemptAt });
      if (result.skippedPurgedFrom !== undefined) {
        options.metrics.eventsSkipped.inc();
        app.log.warn({ from: result.skippedPurgedFrom }, 'events were purged before they were fanned out to the webhook endpoints: no endpoint received them');
      }
      if (!result.full) return false;
    }
    return true;
  };

  /**
   * Claims what this process has room for, fairly (at most PER_ENDPOINT_CLAIM of an endpoint; one
   * holding its share is left out). Answers whether to claim again at once: the claim took all it
   * asked for, or an endpoint's full share (it may have more due, and room for them).
   */
  const claim = async (): Promise<boolean> => {
    const held = queue.held();
    const limit = Math.min(CLAIM_BATCH, MAX_HELD - held.total);
    const skipEndpoints = [...held.byEndpoint].filter(([, count]) => count + PER_ENDPOINT_CLAIM > PER_ENDPOINT_HELD).map(([id]) => id);
    const filter = { now: now(), skipEndpoints };
    if (limit <= 0 || !(await anyDeliveryDue(db, filter))) return false;
    const owner = `${instance}:${++claims}`;
    // Before the claim's transaction: the lease, set by the database's clock within it, ends no sooner.
    const claimedAt = performance.now();
    const claimed = await writeTransaction(db, (trx) => claimDueDeliveries(trx, { ...filter, owner, leaseMs, limit, perEndpoint: PER_ENDPOINT_CLAIM }));
    if (stop.signal.aborted) {
      await releaseDeliveries(
        db,
        claimed.map((delivery) => delivery.id),
        owner,
      );
      return false;
    }
    queue.add(claimed.map((delivery) => ({ delivery, owner, leaseDeadline: claimedAt + leaseMs })));
    const perEndpoint = new Map<number, number>();
    for (const { endpointId } of claimed) perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    return claimed.length === limit || [...perEndpoint.values()].includes(PER_ENDPOINT_CLAIM);
  };

  const purge = async () => {
    if (Date.now() - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = Date.now();
    await purgeOldDeliveries(db, now() - options.retentionDays * DAY_MS, { stopping: () => stop.signal.aborted });
  };

  const runRound = async () => {
    test?.roundStarted?.();
    if (dropped > 0) {
      app.log.warn(
        { count: dropped },
        'claimed webhook deliveries left unsent: too little of their lease was left to start an attempt; they are sent again once it ends',
      );
      dropped = 0;
    }
    try {
      do {
        again = false;
        fanOutBacklog = await fanOut();
        if ((await claim()) || fanOutBacklog) again = true;
      } while (again && !stop.signal.aborted);
      await purge();
      if (failures > 0) app.log.info({ failedRounds: failures }, 'webhook dispatch rounds succeed again');
      failures = 0;
    } catch (error) {
      // A database that is down fails every round: the rounds back off (and log) twice as long each time, up to BACKOFF_CAP_MS.
      failures++;
      options.metrics.roundsFailed.inc();
      if (!stop.signal.aborted)
        app.log.warn({ err: error, failedRounds: failures, retryInMs: backoffMs() }, 'a webhook dispatch round failed; the next one tries again');
    } finally {
      round = undefined;
      schedule();
    }
  };

  const backoffMs = () => (failures === 0 ? pollMs : Math.min(BACKOFF_CAP_MS, pollMs * 2 ** Math.min(failures, 20)));

  const schedule = () => {
    if (stop.signal.aborted) return;
    clearTimeout(timer);
    const wait = backoffMs();
    pausedUntil = failures === 0 ? 0 : performance.now() + wait;
    timer = setTimeout(() => {
      pausedUntil = 0;
      kick();
    }, wait);
    timer.unref();
  };

  function kick(): void {
    if (stop.signal.aborted || performance.now() < pausedUntil) return;
    if (round) {
      again = true;
      return;
    }
    round = runRound();
  }

  app.addHook('onReady', async () => kick());
  app.addHook('onClose', async () => {
    // What waits for a slot goes back at once (taken before the aborted sends free their slots and
    // the lines move on); what is in flight is aborted and gives itself back; a claim still running
    // gives back all it took. A stalled database must not hold the stop: after CLOSE_WAIT_MS the
    // rest is left to the leases, which expire on their own (the deliveries are sent again then).
    const waiting = queue.takeWaiting();
    stop.abort();
    clearTimeout(timer);
    const closing = (async () => {
      await round;
      await Promise.allSettled(
        [...new Set(waiting.map((held) => held.owner))].map((owner) =>
          releaseDeliveries(
            db,
            waiting.filter((held) => held.owner === owner).map((held) => held.delivery.id),
            owner,
          ),
        ),
      );
      await queue.drain();
    })();
    if (!(await settledWithin(closing, test?.closeWaitMs ?? CLOSE_WAIT_MS))) {
      app.log.warn(
        'the webhook dispatcher stopped without giving its deliveries back (the database did not answer); they are sent again once their leases end',
      );
    }
    sender.close();
  });
  return { kick };
}
