/**
 * Builds the application as a Fastify instance without listening, so tests `inject()` into the
 * real thing and `server.ts` only boots it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SchemaObject } from 'ajv';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import type { Kysely } from 'kysely';
import pino from 'pino';
import type { Config } from './config.js';
import type { DbHandle } from './db/create-db.js';
import type { Database } from './db/database.js';
import { healthRoutes } from './health/health.routes.js';
import { registerBearerAuth } from './http/auth.js';
import { registerCors } from './http/cors.js';
import { ErrorSchema } from './http/responses.js';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './http/error-handler.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerResponseHeaders, requestIdOf } from './http/request-context.js';
import { trackRouteMethods } from './http/route-methods.js';
import { createValidatorCompiler } from './http/validation.js';
import { redactApiKeys } from './keys/api-key-token.js';
import { createKeyVerifier } from './keys/keys.service.js';
import { type AppMetrics, createMetrics } from './metrics/metrics.js';
import { registerMetricsHooks } from './metrics/metrics.hooks.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { registerOrdersMetrics } from './orders/orders.metrics.js';
import { ordersRoutes } from './orders/orders.routes.js';
import { NewOrderSchema, OrderSchema, OrdersSchema, OrderStatusSchema } from './orders/orders.schemas.js';
import { cursorSecretSource } from './pagination/cursor-secret.js';
import { petsRoutes } from './pets/pets.routes.js';
import { NewPetSchema, PetPatchSchema, PetSchema, PetsSchema, PetStatusSchema } from './pets/pets.schemas.js';

export interface AppDeps {
  db: Kysely<Database>;
  config: Pick<Config, 'logLevel' | 'bodyLimitBytes' | 'publicBaseUrl' | 'stagingBaseUrl' | 'keyCacheTtlMs' | 'rateLimitPerMinute' | 'trustProxy' | 'cursorSecret' | 'corsOrigins' | 'metricsPort' | 'metricsToken' | 'idempotencyKeyTtlHours'>;
  /** What the metrics tell of the database: its dialect and, on PostgreSQL, its pool. */
  database?: Pick<DbHandle, 'dialect' | 'poolStats'>;
  /** The metrics to count into; made here when not given. */
  metrics?: AppMetrics;
  /** What GET /metrics answers; this process's metrics by default (a worker asks its primary for the sum). */
  renderMetrics?: () => Promise<string>;
  /** The clock, in epoch milliseconds; tests move it to check expiry and the sunset date. */
  now?: () => number;
  /** Where log lines go; the default is standard output. */
  logStream?: NodeJS.WritableStream;
  /** Tests only: awaited once a request has reserved its Idempotency-Key (see http/idempotency.ts). */
  onIdempotencyKeyReserved?: (request: FastifyRequest) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics; modules add their own to `metrics.registry`. */
    metrics: AppMetrics;
  }
}

/** Schemas named in the OpenAPI components and referenced by `$ref` from the routes. */
const SHARED_SCHEMAS = [
  PetStatusSchema,
  NewPetSchema,
  PetPatchSchema,
  PetSchema,
  PetsSchema,
  OrderStatusSchema,
  NewOrderSchema,
  OrderSchema,
  OrdersSchema,
  ErrorSchema,
] as SchemaObject[];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps;
  const now = deps.now ?? Date.now;

  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      // Error messages may quote a URL, and so carry a key sent in it by mistake.
      serializers: { err: (error: Error) => redactErrorText(pino.stdSerializers.err(error)) },
    },
    genReqId: requestIdOf,
    // One log line per request, written in onResponse below, instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // A client gets this long to send its whole request, so slow senders cannot hold sockets forever.
    requestTimeout: 30_000,
    // While stopping, requests that still arrive on open connections are served (and those
    // connections closed), rather than answered with Fastify's own 503 body.
    return503OnClosing: false,
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(createValidatorCompiler(SHARED_SCHEMAS));
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  registerResponseHeaders(app);
  // --- issue 10: CORS and metrics (before any route, so both learn every route) ---
  registerCors(app, { origins: config.corsOrigins, methodsOf: trackRouteMethods(app) });
  const metrics = deps.metrics ?? createMetrics({ dialect: deps.database?.dialect, poolStats: deps.database?.poolStats });
  app.decorate('metrics', metrics);
  registerOrdersMetrics(metrics.registry, db);
  registerMetricsHooks(app, metrics);
  if (config.metricsPort === undefined) {
    await app.register(metricsRoutes, { render: deps.renderMetrics ?? metrics.render, token: config.metricsToken });
  }
  // --- end issue 10 ---
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactApiKeys(request.url),
        route: request.routeOptions.url,
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        keyId: request.apiKey?.id,
        keyPrefix: request.apiKey?.prefix,
      },
      'request',
    );
  });

  await registerOpenApi(app, config);
  await app.register(healthRoutes, { db });

  const verifier = createKeyVerifier(db, { cacheTtlMs: config.keyCacheTtlMs, now });
  await app.register(
    async (v1) => {
      const brake = registerRateLimit(v1, { limitPerMinute: config.rateLimitPerMinute, now });
      registerBearerAuth(v1, verifier, brake);
      registerIdempotency(v1, {
        db,
        now,
        ttlMs: config.idempotencyKeyTtlHours * 3_600_000,
        metrics,
        ...(deps.onIdempotencyKeyReserved ? { onReserved: deps.onIdempotencyKeyReserved } : {}),
      });
      const cursorSecret = cursorSecretSource(db, config.cursorSecret);
      await v1.register(petsRoutes, { db, now, cursorSecret });
      await v1.register(ordersRoutes, { db, now, cursorSecret });
    },
    { prefix: '/v1' },
  );

  return app;
}

function redactErrorText<T extends { message?: unknown; stack?: unknown }>(serialized: T): T {
  for (const field of ['message', 'stack'] as const) {
    if (typeof serialized[field] === 'string') (serialized as Record<string, unknown>)[field] = redactApiKeys(serialized[field]);
  }
  return serialized;
}

/** Trusts the nearest `hops` proxies (Fastify's types take a function for a hop count). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
