/**
 * When a delivery's next attempt is due: WEBHOOK_RETRY_SCHEDULE gives the seconds before each
 * attempt (the first before the first one), each stretched by up to JITTER_SHARE at random so that
 * the deliveries of one burst, failing together, do not all come back together. A receiver that
 * answers 429 or 503 with `Retry-After` gets at least that long (bounded by RETRY_AFTER_MAX_MS),
 * whatever the schedule says. After the schedule's last attempt, the delivery has failed.
 */

/** The largest share of a wait added at random: 20 %, as Standard Webhooks' own examples do. */
export const JITTER_SHARE = 0.2;

/** The longest `Retry-After` honoured: a day. A receiver asking for more gets its next attempt after a day. */
export const RETRY_AFTER_MAX_MS = 86_400_000;

/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3: 503; RFC 6585: 429). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** The wait before attempt number `attempt` (0 for the first), jittered; undefined when the schedule has no such attempt. */
export function scheduledDelayMs(scheduleSeconds: readonly number[], attempt: number, random: () => number = Math.random): number | undefined {
  const seconds = scheduleSeconds[attempt];
  if (seconds === undefined) return undefined;
  return Math.round(seconds * 1000 * (1 + JITTER_SHARE * random()));
}

/**
 * The wait a `Retry-After` header asks for, in ms from `nowMs`: delay-seconds or an HTTP-date
 * (RFC 9110 §10.2.3), at most RETRY_AFTER_MAX_MS; undefined when absent, unreadable, or on a status
 * it does not apply to.
 */
export function retryAfterMs(status: number | undefined, header: string | undefined, nowMs: number): number | undefined {
  if (status === undefined || !RETRY_AFTER_STATUSES.has(status) || header === undefined) return undefined;
  const text = header.trim();
  let wait: number;
  if (/^\d{1,10}$/.test(text)) wait = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined;
    wait = at - nowMs;
  }
  return Math.min(Math.max(wait, 0), RETRY_AFTER_MAX_MS);
}

/**
 * When the attempt after a failed one is due, or undefined when the schedule is exhausted (the
 * delivery has failed). `attemptsMade` counts the failed one. A `Retry-After` pushes the next
 * attempt later, never earlier, and never past the schedule's end: a delivery whose schedule is done
 * has failed even if the receiver asked for a later try.
 */
export function nextAttemptAt(
  scheduleSeconds: readonly number[],
  attemptsMade: number,
  nowMs: number,
  retryAfter: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const scheduled = scheduledDelayMs(scheduleSeconds, attemptsMade, random);
  if (scheduled === undefined) return undefined;
  return nowMs + Math.max(scheduled, retryAfter ?? 0);
}
