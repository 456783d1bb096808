/**
 * The way of a request through the service, in order. Order is behaviour: it decides what a
 * client sees when a request fails several checks at once, and which refusals cost quota. Every
 * hook of the request path is added here and nowhere else, so a new check cannot slip in before
 * the quota by accident. Each phase is one named component; a phase that needs no waiting is one
 * synchronous hook (few hooks, no promise per request: docs/performance.md).
 *
 *   phase           hook (scope)            component                      refusals
 *   1. identify     onRequest (all)         http/request-context.ts        -
 *                                           http/protocol-checks.ts        400 bad_request (Host), 417
 *                                           http/cors.ts (when configured) a preflight answers 204 here
 *      route        Fastify's router        http/route-table.ts, error-handler.ts  404, 405 (+ Allow)
 *   2. admit        onRequest (/v1)         access/access-control.ts
 *        authenticate                       access/authentication.ts       401 (429: the failed-key brake)
 *        quota                              access/rate-limit.ts           429; from here every answer
 *                                                                          counts and carries RateLimit
 *        scope                              access/scope-check.ts          403 insufficient_scope
 *   3. body         preParsing, parser,     http/expect-continue.ts        100 Continue only now
 *                   preValidation (/v1),    http/json-body.ts              415, 413, 400 malformed_json
 *                   validation              http/query-encoding.ts,        400 validation_failed
 *                                           http/validation.ts
 *   4. idempotency  preHandler (routes with idempotency/idempotency.hooks.ts  replay, 409, 422, 400
 *                   config.idempotent)
 *   5. handler      the route               pets/, orders/, health/, ...   404, 409, 410, 412, 5xx
 *      answer       onSend (all)            http/request-context.ts,       (Connection: close on a
 *                                           http/lingering-close.ts         stop or an unread body)
 *                   onSend (idempotent)     idempotency/idempotency.hooks.ts keeps the answer
 *   6. completion   onResponse, onRequestAbort (all)                       metrics/request-metrics.ts
 *                                           http/request-context.ts        (the access log line)
 *
 * Every refusal, whichever phase makes it, leaves through http/error-handler.ts in the one Error
 * shape {code, message, status}. Requests refused by Node's parser before any of this (a malformed
 * request line, headers too large, a request that took too long) are answered there too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { registerAccessControl } from './access/access-control.js';
import type { RateLimit } from './access/rate-limit.js';
import type { Database } from './db/database.js';
import { createCors } from './http/cors.js';
import type { CorsOrigins } from './http/cors-policy.js';
import { registerExpectContinue } from './http/expect-continue.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { lingerIfBodyArriving, LINGER_LIMITS } from './http/lingering-close.js';
import { protocolProblem, registerProtocolChecks } from './http/protocol-checks.js';
import { registerQueryEncodingCheck } from './http/query-encoding.js';
import { decorateRequestLog, identifyRequest, logAbortedRequest, logRequest, setAnswerHeaders } from './http/request-context.js';
import type { RouteTable } from './http/route-table.js';
import { registerIdempotency } from './idempotency/idempotency.hooks.js';
import type { KeyVerifier } from './keys/keys.service.js';
import type { AppMetrics } from './metrics/metrics.js';
import { answerCounter } from './metrics/request-metrics.js';

export interface RequestPipelineOptions {
  corsOrigins: CorsOrigins;
  /** The one route table (route-table.ts), which the error handler reads too. */
  routes: RouteTable;
  metrics: AppMetrics;
}

/** Phases 1, 3 (body parsing), the answer's headers and 6, for every request; register before any route. */
export function registerRequestPipeline(app: FastifyInstance, options: RequestPipelineOptions): void {
  const { metrics } = options;
  const cors = createCors(options.corsOrigins, options.routes);
  decorateRequestLog(app);
  registerProtocolChecks(app);

  // 1. identify
  app.addHook('onRequest', (request, reply, done) => {
    identifyRequest(request, reply);
    const problem = protocolProblem(request.raw);
    if (problem) throw problem;
    // A preflight answered here goes on to the answer's hooks, not to the next phase.
    if (cors?.(request, reply)) return;
    done();
  });

  // 3. body
  registerExpectContinue(app);
  registerJsonBodyParser(app);

  // The answer: the headers every answer carries, and the lingering close of an unread body.
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    setAnswerHeaders(reply, stopping);
    lingerIfBodyArriving(request, reply, LINGER_LIMITS);
    done(null, payload);
  });

  // 6. completion: once the answer has gone out (or the client hung up), the metrics and the log line.
  const countAnswer = answerCounter(metrics);
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply, false);
    countAnswer(request, reply);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    logAbortedRequest(request);
    done();
  });
}

export interface OperationPhasesOptions {
  db: Kysely<Database>;
  now: () => number;
  verifier: KeyVerifier;
  /** Undefined when turned off (access/shared-rate-limit.ts makes it, at the root). */
  rateLimit: RateLimit | undefined;
  idempotency: { ttlMs: number; metrics: AppMetrics; onReserved?: (request: FastifyRequest) => Promise<void> };
}

/** Phases 2 to 4 on the /v1 scope; the routes registered after them are phase 5. */
export function registerOperationPhases(v1: FastifyInstance, options: OperationPhasesOptions): void {
  const { db, now } = options;
  registerAccessControl(v1, { verifier: options.verifier, rateLimit: options.rateLimit }); // 2
  registerQueryEncodingCheck(v1); // 3 (preValidation; body parsing and validation are Fastify's own)
  registerIdempotency(v1, { db, now, ...options.idempotency }); // 4
}
