/**
 * The webhook dispatcher: runs in every process of the service, off the request path, from the
 * app's start to its close. Each round it
 * 1. fans new events out into deliveries (webhook-fan-out.ts), batch after batch while full;
 * 2. claims due deliveries in one short transaction, setting a lease (WEBHOOK_LEASE_SECONDS):
 *    PostgreSQL `FOR UPDATE SKIP LOCKED`, so instances take different rows; SQLite's write
 *    transaction, so the processes on one file claim one at a time (each delivery is claimed by
 *    one of them, as if the file had one dispatcher);
 * 3. sends each claimed delivery outside any transaction and records its outcome
 *    (webhook-attempt.ts).
 * Rounds follow one another while there is work, and otherwise every POLL_MS (500 ms), or at once
 * when this process adds a delivery (`kick`): events written by other processes wait for the next
 * poll. At most MAX_IN_FLIGHT sends run at once in a process and PER_ENDPOINT_IN_FLIGHT to one
 * endpoint, whose other due deliveries are left for later rounds: a receiver that hangs holds its
 * own slots for the attempt's timeout, never another endpoint's.
 *
 * A process killed mid-send leaves its leases to expire: then any dispatcher claims the deliveries
 * again and sends them (at least once). Closing the app stops the rounds, aborts the sends in flight
 * and gives their deliveries back (no attempt counted), and waits for that before the database closes.
 */
import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { writeTransaction } from '../db/dialect.js';
import { attemptDelivery, type AttemptContext } from './webhook-attempt.js';
import { anyDeliveryDue, claimDueDeliveries, findEndpointsForSending, releaseDeliveries } from './webhook-dispatch.repository.js';
import { createSendQueue } from './webhook-send-queue.js';
import { purgeOldDeliveries } from './webhook-deliveries.retention.js';
import { fanOutBatch, hasEventsToFanOut, passOverWhenNobodyReceives } from './webhook-fan-out.js';
import { scheduledDelayMs } from './webhook-retry-schedule.js';
import { createWebhookSender, SEND_TIMEOUT_MS } from './webhook-sender.js';
import type { WebhookMetrics } from './webhooks.metrics.js';

const POLL_MS = 500;
const MAX_IN_FLIGHT = 64;
/** Deliveries a process holds at most (waiting for a slot or in flight), and per endpoint. */
const MAX_HELD = 512;
const PER_ENDPOINT_HELD = 128;
/** Deliveries claimed at once. */
const CLAIM_BATCH = 100;
/** What an attempt's record needs of its lease after the attempt's timeout. */
const RECORD_MARGIN_MS = 1000;
/** Sends in flight to one endpoint per process. */
export const PER_ENDPOINT_IN_FLIGHT = 8;
/** Most fan-out batches per round, so claims are not starved by a backlog of events. */
const FAN_OUT_BATCHES_PER_ROUND = 20;
const PURGE_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

/** Tests only: knobs of the dispatcher (the defaults are what the service runs with). */
export interface DispatcherTestOptions {
  /** The attempt's timeout instead of min(15 s, half the lease). */
  timeoutMs?: number;
  /** The DNS lookup of every connection (a stub answering a private address, say). */
  lookup?: LookupFunction;
  pollMs?: number;
}

export interface DispatcherOptions {
  db: Kysely<Database>;
  now: () => number;
  metrics: WebhookMetrics;
  allowedHosts: readonly string[];
  scheduleSeconds: readonly number[];
  leaseSeconds: number;
  retentionDays: number;
  test?: DispatcherTestOptions | undefined;
}

export interface WebhookDispatcher {
  /** Starts a round now (a delivery was just added in this process). */
  kick(): void;
}

export function registerWebhookDispatcher(app: FastifyInstance, options: DispatcherOptions): WebhookDispatcher {
  const { db, now, test } = options;
  const pollMs = test?.pollMs ?? POLL_MS;
  const leaseMs = options.leaseSeconds * 1000;
  // An attempt is always over, answered or not, well before its lease ends, so its outcome is written while the lease holds.
  const timeoutMs = test?.timeoutMs ?? Math.min(SEND_TIMEOUT_MS, leaseMs / 2);
  const sender = createWebhookSender({ allowedHosts: options.allowedHosts, timeoutMs, now, lookup: test?.lookup });
  const context: AttemptContext = { db, sender, now, scheduleSeconds: options.scheduleSeconds, metrics: options.metrics, log: app.log };
  const instance = randomUUID();
  const stop = new AbortController();
  let claims = 0;
  let round: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPurge = 0;

  const queue = createSendQueue({
    maxInFlight: MAX_IN_FLIGHT,
    perEndpoint: PER_ENDPOINT_IN_FLIGHT,
    // Started only if the attempt, timed out at worst, ends with a second of its lease to spare for its record.
    canStart: (held) => !stop.signal.aborted && now() + timeoutMs + RECORD_MARGIN_MS <= held.leaseUntil,
    send: (held) => attemptDelivery(context, held, stop.signal),
    // Claims again as the lines fall to half, and when they are empty: once per crossing, not after every send.
    sent: (held) => {
      if (held.total === 0 || held.endpoint === 0 || held.total === MAX_HELD / 2 - 1 || held.endpoint === PER_ENDPOINT_HELD / 2 - 1) kick();
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
      if (result.skippedPurgedFrom) {
        options.metrics.eventsSkipped.inc();
        app.log.warn({ from: result.skippedPurgedFrom }, 'events were purged before they were fanned out to the webhook endpoints: no endpoint received them');
      }
      if (!result.full) return false;
    }
    return true;
  };

  /** Claims what this process has room for; answers whether it claimed all it asked for (more may be due). */
  const claim = async (): Promise<boolean> => {
    const held = queue.held();
    const limit = Math.min(CLAIM_BATCH, MAX_HELD - held.total);
    if (limit <= 0 || !(await anyDeliveryDue(db, now()))) return false;
    const owner = `${instance}:${++claims}`;
    // An endpoint holding its share is left out, so one with a backlog never crowds out the others.
    const skipEndpoints = [...held.byEndpoint].filter(([, count]) => count >= PER_ENDPOINT_HELD).map(([id]) => id);
    const at = now();
    const leaseUntil = at + leaseMs;
    const claimed = await writeTransaction(db, (trx) => claimDueDeliveries(trx, { owner, now: at, leaseUntil, limit, skipEndpoints }));
    if (claimed.length === 0) return false;
    const endpoints = new Map((await findEndpointsForSending(db, [...new Set(claimed.map((d) => d.endpointId))])).map((e) => [e.id, e]));
    const giveBack = claimed.filter((delivery) => !endpoints.has(delivery.endpointId) || stop.signal.aborted).map((delivery) => delivery.id);
    queue.add(claimed.filter((delivery) => !giveBack.includes(delivery.id)).map((delivery) => ({ delivery, endpoint: endpoints.get(delivery.endpointId)!, owner, leaseUntil })));
    await releaseDeliveries(db, giveBack, owner);
    return claimed.length === limit;
  };

  const purge = async () => {
    if (Date.now() - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = Date.now();
    await purgeOldDeliveries(db, now() - options.retentionDays * DAY_MS, { stopping: () => stop.signal.aborted });
  };

  const runRound = async () => {
    try {
      do {
        again = false;
        fanOutBacklog = await fanOut();
        if ((await claim()) || fanOutBacklog) again = true;
      } while (again && !stop.signal.aborted);
      await purge();
    } catch (error) {
      app.log.warn({ err: error }, 'a webhook dispatch round failed; the next one tries again');
    } finally {
      round = undefined;
      schedule();
    }
  };

  const schedule = () => {
    if (stop.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(kick, pollMs);
    timer.unref();
  };

  function kick(): void {
    if (stop.signal.aborted) return;
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
    // gives back all it took.
    const waiting = queue.takeWaiting();
    stop.abort();
    clearTimeout(timer);
    await round;
    await Promise.allSettled([...new Set(waiting.map((held) => held.owner))].map((owner) => releaseDeliveries(db, waiting.filter((held) => held.owner === owner).map((held) => held.delivery.id), owner)));
    await queue.drain();
    sender.close();
  });
  return { kick };
}
