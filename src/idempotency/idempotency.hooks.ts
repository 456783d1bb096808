/**
 * The "idempotency" phase of request-pipeline.ts: wires idempotent writes to the routes that opt
 * in with `config: { idempotent: true }`. It runs as a preHandler, so authentication, scope, rate limit,
 * body parsing and validation have all passed: a request refused by them never reserves a key.
 * Then the answer is stored (or the key released) in onSend, before it goes out, so a retry that
 * arrives after the answer always finds it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter } from 'prom-client';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { fingerprintOf } from './fingerprint.js';
import { parseIdempotencyKey } from './idempotency-key.js';
import type { KeyId } from './idempotency.repository.js';
import { purgeExpiredIdempotencyKeys, reserveIdempotencyKey, settleIdempotencyKey, type StoredAnswer } from './idempotency.service.js';
import { operationOf } from '../http/operation-label.js';
import type { AppMetrics } from '../metrics/metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts `Idempotency-Key` (documented in its OpenAPI operation too). */
    idempotent?: boolean;
    /** How the route's kept answer differs from the one sent (an idempotent route that answers a secret). */
    keptAnswer?: KeptAnswerTransform;
  }
  interface FastifyRequest {
    /** The key this request reserved, while it runs. */
    idempotency?: { id: KeyId; owner: string };
  }
}

/**
 * For a route whose answer holds a secret that must not be kept at rest (a webhook endpoint's
 * signing secret): what is stored in its place, and how a replay gets the answer back.
 */
export interface KeptAnswerTransform {
  /** The body to keep, from the body sent (a successful answer's only). */
  toKept(body: string): string;
  /** The body to replay, from the kept one; throws an AppError when it cannot be answered any more. */
  toReplayed(kept: string): Promise<string>;
}

/** The answer headers a replay repeats; the others (request id, rate limit) belong to each request. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'] as const;
/** Seconds a client is told to wait while the first request with its key still runs; most take milliseconds. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
/** How often expired keys are purged. */
const PURGE_INTERVAL_MS = 60_000;

export interface IdempotencyHttpOptions {
  db: Kysely<Database>;
  now: () => number;
  ttlMs: number;
  metrics: AppMetrics;
  /** Tests only: awaited once a request has reserved its key, to hold it "in progress". */
  onReserved?: (request: FastifyRequest) => Promise<void>;
}

export function registerIdempotency(app: FastifyInstance, options: IdempotencyHttpOptions): void {
  const { db, now, ttlMs } = options;
  const replays = replayCounter(options.metrics);
  app.decorateRequest('idempotency', undefined);

  // Only the routes that opt in get the two hooks below, as route-level hooks: every other
  // request (every read) passes no idempotency hook at all (docs/performance.md).
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), reserveHook];
    route.onSend = [...[route.onSend ?? []].flat(), settleHook];
  });

  // Most requests carry no Idempotency-Key: they pass with `done`, no promise.
  const reserveHook: preHandlerHookHandler = (request, reply, done) => {
    if (request.apiKey === undefined || request.headers['idempotency-key'] === undefined) return done();
    // A replay has sent the stored answer: the request stops here, so `done` is not called.
    reserveForRequest(request, reply).then((result) => (result === reply ? undefined : done()), done);
  };

  const reserveForRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || request.apiKey === undefined) return;
    const parsed = parseIdempotencyKey(Array.isArray(header) ? header.join(', ') : header);
    if ('problem' in parsed) throw new AppError('invalid_idempotency_key', parsed.problem);

    const id = { apiKeyId: request.apiKey.id, idempotencyKey: parsed.key };
    const fingerprint = fingerprintOf({
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      params: (request.params ?? {}) as Record<string, unknown>,
      body: request.body,
    });
    const reservation = await reserveIdempotencyKey(db, id, fingerprint, { now, ttlMs });
    switch (reservation.outcome) {
      case 'reserved':
        request.idempotency = { id, owner: reservation.owner };
        if (options.onReserved) await options.onReserved(request);
        return;
      case 'replay': {
        const answer = await replayable(request, reservation.answer);
        replays.inc({ operation: operationOf(request) });
        return replay(reply, answer);
      }
      case 'in_progress':
        reply.header('retry-after', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
        throw new AppError(
          'idempotency_key_in_use',
          `a request with this Idempotency-Key is still running; retry after ${IN_PROGRESS_RETRY_AFTER_SECONDS} s for its answer`,
        );
      case 'reused':
        throw new AppError(
          'idempotency_key_reused',
          `this Idempotency-Key was used for another request (another operation, path or body than ${request.method} ${request.routeOptions.url}); use a new key for a new request`,
        );
    }
  };

  const settleHook: onSendHookHandler = (request, reply, payload, done) => {
    if (!request.idempotency) return done(null, payload);
    settleForRequest(request, reply, payload).then((sent) => done(null, sent), done);
  };

  const settleForRequest = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = undefined;
    const answer = keptOf(request, answerOf(reply, payload));
    try {
      if (answer) await settleIdempotencyKey(db, held.id, held.owner, answer);
      else await settleIdempotencyKey(db, held.id, held.owner, { status: 500, headers: {}, body: null });
    } catch (error) {
      // The write (if any) is done and its answer is good: send it. The key stays in progress
      // until its lease ends; docs/api.md, "Retries and idempotency", says what a retry sees then.
      request.log.warn({ err: error }, 'idempotency key not settled; it stays in progress until its lease ends');
    }
    return payload;
  };

  let timer: NodeJS.Timeout | undefined;
  let purging = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      // Never two runs at once, never awaited by a request: a slow database only delays purging.
      if (purging) return;
      purging = true;
      purgeExpiredIdempotencyKeys(db, now())
        .catch((error: unknown) => app.log.warn({ err: error }, 'purging expired idempotency keys failed; next try in a minute'))
        .finally(() => {
          purging = false;
        });
    }, PURGE_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

/** The answer as kept: a successful one through the route's transform, if it has one. */
function keptOf(request: FastifyRequest, answer: StoredAnswer | undefined): StoredAnswer | undefined {
  const transform = request.routeOptions.config.keptAnswer;
  if (!transform || !answer?.body || answer.status >= 300) return answer;
  return { ...answer, body: transform.toKept(answer.body) };
}

/** The kept answer as a replay sends it: back through the route's transform, if it has one. */
async function replayable(request: FastifyRequest, answer: StoredAnswer): Promise<StoredAnswer> {
  const transform = request.routeOptions.config.keptAnswer;
  if (!transform || !answer.body || answer.status >= 300) return answer;
  return { ...answer, body: await transform.toReplayed(answer.body) };
}

function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  for (const name of REPLAYED_HEADERS) if (answer.headers[name] !== undefined) reply.header(name, answer.headers[name]);
  reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).send(answer.body ?? undefined);
}

/** The answer as it will be sent, to replay it later; undefined when it is a stream (never for these routes). */
function answerOf(reply: FastifyReply, payload: unknown): StoredAnswer | undefined {
  let body: string | null;
  if (payload === null || payload === undefined || payload === '') body = null;
  else if (typeof payload === 'string') body = payload;
  else if (Buffer.isBuffer(payload)) body = payload.toString('utf8');
  else return undefined;
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body };
}

function replayCounter(metrics: AppMetrics): Counter<'operation'> {
  const name = 'animal_store_idempotent_replays_total';
  // Apps built on shared metrics (a test's, a worker's) register it once.
  const existing = metrics.registry.getSingleMetric(name) as Counter<'operation'> | undefined;
  return (
    existing ??
    new Counter({
      name,
      help: 'Answers replayed to a retry with the same Idempotency-Key (Idempotent-Replayed: true), by operation.',
      labelNames: ['operation'] as const,
      registers: [metrics.registry],
    })
  );
}
