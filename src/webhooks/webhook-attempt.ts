/**
 * One attempt of a claimed delivery, start to end: send it (outside any transaction), then write
 * its outcome in one short transaction, only while the claim's lease is still ours. The outcome:
 * - a 2xx: the delivery succeeded; the endpoint's failing spell (if any) ends;
 * - 410 Gone: the receiver says the endpoint is no more: it is disabled (`receiver_gone`) and its
 *   pending deliveries stop;
 * - anything else: the next attempt per WEBHOOK_RETRY_SCHEDULE (later if `Retry-After` asks), or
 *   failed once the schedule is done; an endpoint that has failed every attempt for
 *   FAILING_DISABLE_MS is disabled (`failing`).
 * The endpoint is read again just before the send (its URL, secrets, status and types as they are
 * now). That read may wait (for a pool connection, or a lock up to the statement timeout): the
 * lease is checked again after it, and the send is given what is left of it (webhook-lease.ts), so
 * no attempt is ever out once its lease has ended and another dispatcher may claim the delivery.
 * A process stopping mid-send gives the delivery back unsent (the lease is released, no attempt
 * is counted). A database that fails the write leaves the lease to expire: the attempt is made again.
 * The record takes the endpoint's lock, when it needs one, before the delivery's (the order of a PATCH
 * or DELETE of the endpoint), and is run again when PostgreSQL aborts it for a conflict with another transaction.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { retriedWriteTransaction } from '../db/retry-conflicts.js';
import type { ClaimedDelivery } from './webhook-claims.repository.js';
import {
  clearFailingSince,
  disableEndpoint,
  type EndpointForSending,
  findEndpointForSending,
  lockEndpointForRecord,
  markFailing,
  recordAttempt,
  releaseDeliveries,
} from './webhook-dispatch.repository.js';
import { RECORD_MARGIN_MS } from './webhook-lease.js';
import { nextAttemptAt, retryAfterMs } from './webhook-retry-schedule.js';
import type { AttemptResult, WebhookSender } from './webhook-sender.js';
import type { WebhookMetrics } from './webhooks.metrics.js';

/** An endpoint that failed every attempt for this long is disabled: 5 days. */
export const FAILING_DISABLE_MS = 5 * 86_400_000;

export interface AttemptContext {
  db: Kysely<Database>;
  sender: WebhookSender;
  /** The attempt's timeout when the lease leaves room for it (webhook-lease.ts). */
  timeoutMs: number;
  /** Told of a delivery given back unsent because its endpoint's read left too little of the lease. */
  unstarted: () => void;
  /** Told of an attempt whose connection failed for want of file descriptors. */
  refusedSend: (reason: 'descriptors') => void;
  now: () => number;
  scheduleSeconds: readonly number[];
  metrics: WebhookMetrics;
  log: FastifyBaseLogger;
}

/** The secrets that sign now: the current one, and the previous one until its rotation ends. */
function signingSecrets(endpoint: EndpointForSending, now: number): string[] {
  const previous = endpoint.previousSecret !== null && (endpoint.previousSecretExpiresAt ?? 0) > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}

/** A claim of one delivery, and when its lease ends at the earliest, on this process's monotonic clock (performance.now()). */
export interface HeldClaim {
  delivery: ClaimedDelivery;
  owner: string;
  leaseDeadline: number;
}

/**
 * Sends the delivery; settles once the receiver's part is over, with `recorded`, which settles once
 * the outcome is written (it never rejects). The endpoint is read just before: a PATCH of its URL or
 * secret, a DELETE or a disable that committed while the delivery waited for a slot is obeyed (one
 * read by primary key). A delivery whose endpoint is gone or disabled, or no longer receives its
 * type, is given back unsent, no attempt counted; a database that cannot be read leaves its lease
 * to expire. After the read, the attempt's timeout is what is left of the lease less RECORD_MARGIN_MS
 * (at most `timeoutMs`); less than half of `timeoutMs` left, the delivery is given back unsent.
 */
export async function attemptDelivery(context: AttemptContext, claim: HeldClaim, stop: AbortSignal): Promise<{ recorded: Promise<void> }> {
  const { delivery } = claim;
  let endpoint: EndpointForSending | undefined;
  try {
    endpoint = await findEndpointForSending(context.db, delivery.endpointId);
  } catch (error) {
    context.log.debug(
      { err: error, deliveryId: delivery.id },
      'could not read a webhook endpoint before sending; the delivery is sent again once its lease ends',
    );
    return { recorded: Promise.resolve() };
  }
  if (endpoint === undefined || !receives(endpoint, delivery.eventType)) {
    return { recorded: releaseDeliveries(context.db, [delivery.id], claim.owner).catch(() => {}) };
  }
  // The read may have waited: what is left of the lease now bounds the attempt.
  const timeoutMs = Math.min(context.timeoutMs, Math.floor((claim.leaseDeadline - performance.now() - RECORD_MARGIN_MS) / 100) * 100);
  if (timeoutMs < context.timeoutMs / 2) {
    context.unstarted();
    return { recorded: releaseDeliveries(context.db, [delivery.id], claim.owner).catch(() => {}) };
  }
  const attemptedAt = context.now();
  let result: AttemptResult;
  try {
    result = await context.sender.send(
      { url: endpoint.url, messageId: delivery.messageId, payload: delivery.payload, secrets: signingSecrets(endpoint, attemptedAt), timeoutMs },
      stop,
    );
  } catch (error) {
    // A stored secret that cannot sign (not `whsec_…`), say: a failed attempt like another, never a crash.
    context.log.error({ err: error, deliveryId: delivery.id, endpointId: endpoint.id }, 'a webhook attempt could not be made');
    result = { error: 'internal: the message could not be signed or sent', durationMs: 0 };
  }
  if (result.noDescriptors) context.refusedSend('descriptors');
  return { recorded: record(context, { ...claim, endpoint }, attemptedAt, result) };
}

/** Whether the endpoint receives this type now: one of its allowed types, or a `webhook.test`. */
function receives(endpoint: EndpointForSending, eventType: string): boolean {
  if (eventType === 'webhook.test') return true;
  try {
    const allowed: unknown = JSON.parse(endpoint.allowedTypes);
    return Array.isArray(allowed) && allowed.includes(eventType);
  } catch {
    return false;
  }
}

async function record(
  context: AttemptContext,
  claim: { delivery: ClaimedDelivery; endpoint: EndpointForSending; owner: string },
  attemptedAt: number,
  result: AttemptResult,
): Promise<void> {
  const { delivery, endpoint, owner } = claim;
  const { db, log } = context;
  try {
    if (result.aborted) {
      await releaseDeliveries(db, [delivery.id], owner);
      return;
    }
    const effect = await retriedWriteTransaction(db, (trx) => recordOutcome(trx, context, { delivery, owner, attemptedAt, result }));
    if (effect === undefined) {
      log.info(
        { deliveryId: delivery.id, endpointId: endpoint.id },
        'webhook attempt made after its lease was taken over or its endpoint deleted; its outcome is not recorded',
      );
      return;
    }
    context.metrics.attempts.inc({ outcome: effect.succeeded ? 'succeeded' : result.refused ? 'refused' : 'failed' });
    if (effect.gaveUp) {
      context.metrics.gaveUp.inc();
      log.info({ deliveryId: delivery.id, endpointId: endpoint.id, attempts: delivery.attempts + 1 }, 'webhook delivery failed: its retry schedule is done');
    }
    if (effect.disabled) {
      context.metrics.endpointsDisabled.inc({ reason: effect.disabled });
      log.warn({ endpointId: endpoint.id, reason: effect.disabled }, 'webhook endpoint disabled');
    }
  } catch (error) {
    log.warn({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt; it will be made again once its lease ends');
  }
}

interface OutcomeEffect {
  succeeded: boolean;
  gaveUp: boolean;
  disabled?: 'receiver_gone' | 'failing';
}

async function recordOutcome(
  trx: Kysely<Database>,
  context: AttemptContext,
  attempt: { delivery: ClaimedDelivery; owner: string; attemptedAt: number; result: AttemptResult },
): Promise<OutcomeEffect | undefined> {
  const { delivery, result } = attempt;
  const finishedAt = context.now();
  const status = result.statusCode;
  const succeeded = status !== undefined && status >= 200 && status < 300;
  const gone = status === 410;
  const next =
    succeeded || gone
      ? undefined
      : nextAttemptAt(context.scheduleSeconds, delivery.attempts + 1, finishedAt, retryAfterMs(status, result.retryAfter, finishedAt));
  // The endpoint before the delivery (see lockEndpointForRecord). A success touches the endpoint only to end
  // a failing spell, which it does first, locking it only then: the records of a healthy endpoint never
  // queue on its row. A failure may mark or disable it: it locks it first.
  if (succeeded) await clearFailingSince(trx, delivery.endpointId);
  else if (!(await lockEndpointForRecord(trx, delivery.endpointId))) return undefined;
  const recorded = await recordAttempt(trx, {
    deliveryId: delivery.id,
    owner: attempt.owner,
    attemptedAt: attempt.attemptedAt,
    durationMs: result.durationMs,
    statusCode: status ?? null,
    error: result.error ?? null,
    succeeded,
    state: succeeded ? 'succeeded' : next === undefined ? 'failed' : 'pending',
    nextAttemptAt: next ?? null,
  });
  if (!recorded) return undefined;
  const { endpointId } = recorded;
  if (succeeded) return { succeeded, gaveUp: false };
  // A delivery stopped while its attempt was out did not give up: it had been ended already.
  const effect: OutcomeEffect = { succeeded, gaveUp: next === undefined && !gone && recorded.wasPending };
  if (gone) {
    if (await disableEndpoint(trx, endpointId, 'receiver_gone', finishedAt)) effect.disabled = 'receiver_gone';
    return effect;
  }
  const failingSince = await markFailing(trx, endpointId, finishedAt);
  if (failingSince !== undefined && finishedAt - failingSince >= FAILING_DISABLE_MS && (await disableEndpoint(trx, endpointId, 'failing', finishedAt))) {
    effect.disabled = 'failing';
  }
  return effect;
}
