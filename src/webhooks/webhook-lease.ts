/**
 * What a webhook attempt may take of its claim's lease (WEBHOOK_LEASE_SECONDS). An attempt reads its
 * endpoint (a statement: up to DATABASE_STATEMENT_TIMEOUT_MS when it waits for a lock), sends (up
 * to its timeout), then records its outcome (a statement again, and RECORD_MARGIN_MS): all of it
 * must end before the lease does, or another instance may claim the delivery and send it while
 * the first send is still out. The lease is split in two halves: one for the delivery to wait for
 * a send slot, the other for the attempt, so the attempt's timeout is what is left of half the
 * lease after a statement and the margin (at most SEND_TIMEOUT_MS), and a lease too short to
 * leave it MIN_ATTEMPT_TIMEOUT_MS is refused when the configuration is read.
 * Free of imports: config.ts reads it.
 */

/** The most an attempt waits for its answer (Standard Webhooks' recommendation is 15 s at most). */
export const SEND_TIMEOUT_MS = 15_000;
/** The shortest timeout an attempt is given: a lease that leaves less is refused. */
const MIN_ATTEMPT_TIMEOUT_MS = 1000;
/** What an attempt's record needs of its lease after the attempt, beyond a statement's time. */
export const RECORD_MARGIN_MS = 1000;

/** The attempt's timeout for a lease and a statement timeout: min(SEND_TIMEOUT_MS, lease / 2 − statement timeout − RECORD_MARGIN_MS). */
export function attemptTimeoutMs(leaseMs: number, statementTimeoutMs: number): number {
  return Math.min(SEND_TIMEOUT_MS, leaseMs / 2 - statementTimeoutMs - RECORD_MARGIN_MS);
}

/**
 * The shortest lease, in whole seconds, for a statement timeout: 2 × (statement timeout + the
 * attempt's shortest timeout + RECORD_MARGIN_MS), so the attempt part of it is never less than
 * MIN_ATTEMPT_TIMEOUT_MS.
 */
export function minimumLeaseSeconds(statementTimeoutMs: number): number {
  return Math.ceil((2 * (statementTimeoutMs + MIN_ATTEMPT_TIMEOUT_MS + RECORD_MARGIN_MS)) / 1000);
}
