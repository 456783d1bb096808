/**
 * What `attemptDelivery` (src/webhooks/webhook-attempt.ts) needs, for tests that make one attempt
 * by hand, in the order the dispatcher does: a claim through the dispatcher's own SQL, then the
 * attempt, its send to a real receiver on 127.0.0.1 and its record.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Registry } from 'prom-client';
import { CONFIG_DEFAULTS } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { writeTransaction } from '../../src/db/dialect.js';
import type { AttemptContext, HeldClaim } from '../../src/webhooks/webhook-attempt.js';
import { claimDueDeliveries } from '../../src/webhooks/webhook-claims.repository.js';
import { createWebhookSender } from '../../src/webhooks/webhook-sender.js';
import { registerWebhookMetrics } from '../../src/webhooks/webhooks.metrics.js';

const quiet = (): FastifyBaseLogger => {
  const log = { level: 'silent', fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, silent() {}, child: () => log };
  return log as unknown as FastifyBaseLogger;
};

export interface AttemptContextForTests {
  context: AttemptContext;
  /** Deliveries given back unsent because too little of their lease was left after the endpoint's read. */
  unstarted(): number;
  close(): void;
}

export function attemptContextForTests(db: Kysely<Database>, options: { timeoutMs?: number } = {}): AttemptContextForTests {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const sender = createWebhookSender({ allowedHosts: ['127.0.0.1'], timeoutMs, maxSockets: CONFIG_DEFAULTS.WEBHOOK_MAX_SOCKETS, now: Date.now });
  let unstarted = 0;
  const context: AttemptContext = {
    db,
    sender,
    timeoutMs,
    unstarted: () => unstarted++,
    refusedSend: () => {},
    now: Date.now,
    scheduleSeconds: [0, 5, 300],
    metrics: registerWebhookMetrics(new Registry(), db, Date.now),
    log: quiet(),
  };
  return { context, unstarted: () => unstarted, close: () => sender.close() };
}

let claims = 0;

/** Claims the endpoint's due deliveries as the dispatcher does, with a lease of `leaseMs` (on this process's clock from before the claim). */
export async function claimForTests(db: Kysely<Database>, leaseMs = 60_000): Promise<HeldClaim[]> {
  const owner = `test-claim:${++claims}`;
  const claimedAt = performance.now();
  const claimed = await writeTransaction(db, (trx) =>
    claimDueDeliveries(trx, { owner, now: Date.now(), leaseMs, limit: 100, perEndpoint: 32, skipEndpoints: [] }),
  );
  return claimed.map((delivery) => ({ delivery, owner, leaseDeadline: claimedAt + leaseMs }));
}
