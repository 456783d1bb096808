/**
 * The order every /v1 operation passes, in one place. Order is behaviour: it decides what a
 * client sees when a request fails several checks at once, and which refusals cost quota.
 *
 *   1. authentication  onRequest     401 without a valid key (429 for an address whose made-up
 *                                     keys keep failing); sets request.apiKey
 *   2. quota           onRequest     every request of a valid key counts from here on, whatever
 *                                     its answer, and carries RateLimit + RateLimit-Policy;
 *                                     429 when the key's quota is spent
 *   3. scope           onRequest     403 insufficient_scope (so a spent quota answers 429 first)
 *   4. body            preParsing,   415, 413, 400 malformed JSON, then 400 validation
 *                      validation    (the query's percent-encoding among it, in preValidation)
 *   5. idempotency     preHandler    replays a kept answer, or 409 / 422; reserves the key
 *   6. the handler                   404, 409, 412, 5xx ... and the answer
 *
 * Steps 1–3 are onRequest hooks, which Fastify runs in the order they are added: they are added
 * here and nowhere else, so a new check cannot slip in before the quota by accident.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { KeyVerifier } from '../keys/keys.service.js';
import type { AppMetrics } from '../metrics/metrics.js';
import { registerBearerAuth, registerScopeCheck } from './auth.js';
import { registerIdempotency } from './idempotency.js';
import { registerQueryEncodingCheck } from './query-encoding.js';
import { createRateLimit, type RateLimitOptions } from './rate-limit.js';

export interface OperationPipelineOptions {
  db: Kysely<Database>;
  now: () => number;
  verifier: KeyVerifier;
  rateLimit: Omit<RateLimitOptions, 'now'>;
  idempotency: { ttlMs: number; metrics: AppMetrics; onReserved?: (request: FastifyRequest) => Promise<void> };
}

/** Registers steps 1–5 on the /v1 scope; the routes registered after it are step 6. */
export function registerOperationPipeline(v1: FastifyInstance, options: OperationPipelineOptions): void {
  const { db, now } = options;
  const rateLimit = createRateLimit({ ...options.rateLimit, now });
  registerBearerAuth(v1, options.verifier, rateLimit?.brake); // 1
  if (rateLimit) v1.addHook('onRequest', rateLimit.countRequest); // 2
  registerScopeCheck(v1); // 3
  registerQueryEncodingCheck(v1); // 4 (preValidation; body parsing and validation are Fastify's own)
  registerIdempotency(v1, { db, now, ...options.idempotency }); // 5
}
