/**
 * Builds the application as a Fastify instance without listening, so tests `inject()` into the
 * real thing and `server.ts` only boots it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SchemaObject } from 'ajv';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { type Config, CONFIG_DEFAULTS } from './config.js';
import type { DbHandle } from './db/create-db.js';
import type { Database } from './db/database.js';
import { isPostgres } from './db/dialect.js';
import { consoleRoutes } from './console/console.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { stdoutLogDestination } from './log-destination.js';
import { IDLE_GRACE_MS, registerConnectionDrain } from './http/connection-drain.js';
import { ErrorSchema } from './http/responses.js';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './http/error-handler.js';
import { registerOpenApi } from './http/openapi.js';
import { PROTOCOL_SERVER_OPTIONS } from './http/protocol-checks.js';
import { registerServiceIndex } from './http/service-index.js';
import { requestIdOf } from './http/request-context.js';
import { createRouteTable } from './http/route-table.js';
import { createValidatorCompiler } from './http/validation.js';
import { bearerTokenOf } from './access/authentication.js';
import { createSharedRateLimit } from './access/shared-rate-limit.js';
import { redactSecrets } from './secrets/log-redaction.js';
import { announceRevocation, subscribeToRevocations } from './keys/key-revocations.js';
import { createKeyUsage, type KeyUsage } from './keys/key-usage.js';
import { createKeyVerifier } from './keys/keys.service.js';
import { keysRoutes } from './keys/keys.routes.js';
import { ApiKeySchema, ApiKeysSchema, CurrentApiKeySchema, IssuedApiKeySchema, NewApiKeySchema } from './keys/keys.schemas.js';
import { type AppMetrics, createMetrics } from './metrics/metrics.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { registerOrdersMetrics } from './orders/orders.metrics.js';
import { ordersRoutes } from './orders/orders.routes.js';
import { NewOrderSchema, OrderSchema, OrdersSchema, OrderStatusSchema } from './orders/orders.schemas.js';
import { eventsRoutes } from './events/events.routes.js';
import { type PurgeSchedule, registerEventPurge } from './events/events.purge-job.js';
import { startEventSequencer } from './events/events.sequencer.js';
import { EventSchema, EventsSchema, EventTypeSchema } from './events/events.schemas.js';
import { cursorSecretSource } from './pagination/cursor-secret.js';
import { petsRoutes } from './pets/pets.routes.js';
import { registerOperationPhases, registerRequestPipeline } from './request-pipeline.js';
import { type DispatcherTestOptions, registerWebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { webhookDeliveriesRoutes } from './webhooks/webhook-deliveries.routes.js';
import { WebhookDeliverySchema, WebhookTestEventSchema } from './webhooks/webhook-deliveries.schemas.js';
import { registerWebhookMetrics } from './webhooks/webhooks.metrics.js';
import { connectRedis } from './redis/redis-link.js';
import { NewPetSchema, PetPatchSchema, PetSchema, PetsSchema, PetStatusSchema } from './pets/pets.schemas.js';
import { webhookEndpointsRoutes } from './webhooks/webhook-endpoints.routes.js';
import {
  NewWebhookEndpointSchema,
  UpdatedWebhookEndpointSchema,
  WebhookEndpointPatchSchema,
  WebhookEndpointSchema,
  WebhookEndpointsSchema,
  WebhookEndpointWithSecretSchema,
} from './webhooks/webhook-endpoints.schemas.js';
import type { ResolverLookupOptions } from './webhooks/webhook-dns.js';
import { type HostLookup, resolverHostLookup } from './webhooks/webhook-url-policy.js';

export interface AppDeps {
  db: Kysely<Database>;
  config: Pick<
    Config,
    | 'logLevel'
    | 'bodyLimitBytes'
    | 'publicBaseUrl'
    | 'stagingBaseUrl'
    | 'keyCacheTtlMs'
    | 'rateLimitPerMinute'
    | 'trustProxy'
    | 'cursorSecret'
    | 'corsOrigins'
    | 'metricsPort'
    | 'metricsToken'
    | 'shutdownTimeoutMs'
    | 'idempotencyKeyTtlHours'
  > &
    Partial<
      Pick<
        Config,
        | 'redisUrl'
        | 'redisKeyPrefix'
        | 'rateLimitSyncMs'
        | 'keyLastUsedFlushMs'
        | 'eventRetentionDays'
        | 'eventStreamsPerKey'
        | 'webhookAllowedHosts'
        | 'webhookRetryScheduleSeconds'
        | 'webhookLeaseSeconds'
        | 'webhookMaxSockets'
        | 'databaseStatementTimeoutMs'
        | 'consoleEnabled'
      >
    >;
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
  /** How long a client has to send its whole request, headers and body; tests shorten it. */
  requestTimeoutMs?: number;
  /** Tests only: awaited once a request has reserved its Idempotency-Key (see idempotency/idempotency.hooks.ts). */
  onIdempotencyKeyReserved?: (request: FastifyRequest) => Promise<void>;
  /** Tests only: runs the events' purge when the test says, instead of every minute (see events/events.purge-job.ts). */
  eventPurgeSchedule?: PurgeSchedule;
  /** Tests only: the webhook dispatcher's timeout, DNS lookup and poll (see webhooks/webhook-dispatcher.ts). */
  webhookDispatcher?: DispatcherTestOptions;
  /** Tests only: how webhook URLs' host names are resolved (a stub answering private addresses, say); the system's resolver by default. */
  webhookLookup?: HostLookup;
  /** Tests only: the name servers (and timeout) of the c-ares resolver that checks webhook URLs when no webhookLookup is given. */
  webhookUrlDns?: ResolverLookupOptions;
  /** Tests only: how often an idle events stream writes its keep-alive comment (15 s by default). */
  eventKeepAliveMs?: number;
  /** Tests only: how long an events stream's refused write waits for the connection to take more before the stream is cut (60 s by default). */
  eventStallMs?: number;
  /** Tests only: how often each process looks at the feed for its waiting readers (every second by default). */
  eventRecheckMs?: number;
  /** Tests only: the folder of the built console (dist/console/static by default). */
  consoleFolder?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics; modules add their own to `metrics.registry`. */
    metrics: AppMetrics;
    /** The keys' last use, gathered for the next batched write. */
    keyUsage: KeyUsage;
  }
}
/** The documented bound (docs/api.md, error `request_timeout`) for a request to arrive completely. */
export const REQUEST_TIMEOUT_MS = 30_000;

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
  EventTypeSchema,
  EventSchema,
  EventsSchema,
  WebhookTestEventSchema,
  WebhookDeliverySchema,
  NewWebhookEndpointSchema,
  WebhookEndpointPatchSchema,
  WebhookEndpointSchema,
  WebhookEndpointsSchema,
  WebhookEndpointWithSecretSchema,
  UpdatedWebhookEndpointSchema,
  NewApiKeySchema,
  ApiKeySchema,
  ApiKeysSchema,
  IssuedApiKeySchema,
  CurrentApiKeySchema,
  ErrorSchema,
] as SchemaObject[];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps;
  const now = deps.now ?? Date.now;
  const requestTimeout = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: deps.logStream ?? stdoutLogDestination(),
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      // Whatever a client sent may hold a key pasted by mistake (a URL, a name that fails
      // validation and is quoted in an error, a database error's detail): every string logged,
      // errors' included, has its keys (and any webhook signing secret) redacted.
      formatters: { log: redactLogFields },
      serializers: { err: (error: Error) => redactLogFields(pino.stdSerializers.err(error)) },
    },
    genReqId: requestIdOf,
    // One log line per request, written in onResponse below, instead of Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // A client gets this long to send its whole request, so slow senders cannot hold sockets forever.
    requestTimeout,
    // Node checks those timeouts only every connectionsCheckingInterval (30 s by default), and its
    // headersTimeout (60 s) is fixed when the server is made: a stalled request got its 408 after
    // 48 to 85 s. Both timeouts are set here, and checked every second.
    // Node's own answer to a request without Host is a bare 400; protocol-checks.ts answers it.
    http: { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout), ...PROTOCOL_SERVER_OPTIONS },
    // While stopping, requests that still arrive on open connections are served (and those
    // connections closed), rather than answered with Fastify's own 503 body.
    return503OnClosing: false,
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(createValidatorCompiler(SHARED_SCHEMAS));
  const metrics = deps.metrics ?? createMetrics({ dialect: deps.database?.dialect, poolStats: deps.database?.poolStats });
  app.decorate('metrics', metrics);
  registerOrdersMetrics(metrics.registry, db);
  // Before any route, so the one route table (405s, CORS preflights) learns every route.
  const routes = createRouteTable(app);
  registerErrorHandling(app, routes);
  // The way of every request, phase by phase: request-pipeline.ts.
  registerRequestPipeline(app, { corsOrigins: config.corsOrigins, routes, metrics });
  if (config.metricsPort === undefined) {
    await app.register(metricsRoutes, { render: deps.renderMetrics ?? metrics.render, token: config.metricsToken });
  }
  // Half the shutdown timeout at most, so idle connections alone never make a stop time out.
  registerConnectionDrain(app, { idleGraceMs: Math.min(IDLE_GRACE_MS, config.shutdownTimeoutMs / 2) });
  await registerOpenApi(app, config);
  await app.register(healthRoutes, { db });
  // PostgreSQL: committed events get their feed positions off the request path (events/events.sequencer.ts).
  if (isPostgres(db)) {
    const sequencer = startEventSequencer(db, app.log);
    app.addHook('onClose', () => sequencer.close());
  }
  registerServiceIndex(app);
  // The browser console: a page outside /v1, no key needed to load it (console/console.routes.ts).
  if (config.consoleEnabled ?? CONFIG_DEFAULTS.CONSOLE_ENABLED) await app.register(consoleRoutes, { folder: deps.consoleFolder });

  // A fleet: Redis shares the rate-limit counts and the revocations; keys' last use is batched.
  const keyUsage = createKeyUsage(db, {
    flushMs: config.keyLastUsedFlushMs ?? CONFIG_DEFAULTS.KEY_LAST_USED_FLUSH_MS,
    onError: (error) => app.log.warn({ err: error }, "could not record the keys' last use; will retry at the next flush"),
  });
  app.decorate('keyUsage', keyUsage);
  const redis = config.redisUrl
    ? connectRedis(config.redisUrl, { keyPrefix: config.redisKeyPrefix ?? CONFIG_DEFAULTS.REDIS_KEY_PREFIX, log: app.log })
    : undefined;
  const rateLimit = createSharedRateLimit(app, {
    limitPerMinute: config.rateLimitPerMinute,
    now,
    redis,
    syncMs: config.rateLimitSyncMs ?? CONFIG_DEFAULTS.RATE_LIMIT_SYNC_MS,
  });
  app.addHook('onClose', async () => {
    await keyUsage.close();
    await redis?.close();
  });
  // Off the request path, in every process: events become deliveries, sent and retried (webhooks/webhook-dispatcher.ts).
  const webhookMetrics = registerWebhookMetrics(metrics.registry, db, now);
  const webhookDispatcher = registerWebhookDispatcher(app, {
    db,
    now,
    metrics: webhookMetrics,
    allowedHosts: config.webhookAllowedHosts ?? [],
    scheduleSeconds: config.webhookRetryScheduleSeconds ?? CONFIG_DEFAULTS.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number),
    leaseSeconds: config.webhookLeaseSeconds ?? CONFIG_DEFAULTS.WEBHOOK_LEASE_SECONDS,
    statementTimeoutMs: config.databaseStatementTimeoutMs ?? CONFIG_DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS,
    maxSockets: config.webhookMaxSockets ?? CONFIG_DEFAULTS.WEBHOOK_MAX_SOCKETS,
    retentionDays: config.eventRetentionDays ?? CONFIG_DEFAULTS.EVENT_RETENTION_DAYS,
    test: deps.webhookDispatcher,
  });
  const verifier = createKeyVerifier(db, { cacheTtlMs: config.keyCacheTtlMs, now, onUse: keyUsage.record });
  // A failed read only leaves the set empty: the first requests then read it, as before.
  app.addHook('onReady', async () =>
    verifier.warm().catch((error: unknown) => app.log.warn({ err: error }, 'could not read the usable API keys before serving')),
  );
  if (redis) subscribeToRevocations(redis, verifier, (error) => app.log.warn({ err: error }, 'could not subscribe to key revocations'));
  await app.register(
    async (v1) => {
      // Authentication, quota, scope, body, idempotency: the order is written down in request-pipeline.ts.
      registerOperationPhases(v1, {
        db,
        now,
        verifier,
        rateLimit,
        idempotency: {
          ttlMs: config.idempotencyKeyTtlHours * 3_600_000,
          metrics,
          ...(deps.onIdempotencyKeyReserved ? { onReserved: deps.onIdempotencyKeyReserved } : {}),
        },
      });
      const cursorSecret = cursorSecretSource(db, config.cursorSecret);
      await v1.register(petsRoutes, { db, now, cursorSecret });
      await v1.register(ordersRoutes, { db, now, cursorSecret });
      const live = {
        redis,
        streamsPerKey: config.eventStreamsPerKey ?? CONFIG_DEFAULTS.EVENT_STREAMS_PER_KEY,
        keepAliveMs: deps.eventKeepAliveMs,
        stallMs: deps.eventStallMs,
        recheckMs: deps.eventRecheckMs,
        // A stream outlives the check of its request: its key is verified again before each batch (revocations included).
        keyStillUsable: async (request: FastifyRequest) =>
          (await verifier.verify(bearerTokenOf(request.headers.authorization) ?? '')).key?.id === request.apiKey?.id,
      };
      await v1.register(eventsRoutes, { db, cursorSecret, live });
      await v1.register(webhookEndpointsRoutes, {
        db,
        now,
        cursorSecret,
        allowedHosts: config.webhookAllowedHosts ?? [],
        lookup: deps.webhookLookup ?? resolverHostLookup(deps.webhookUrlDns),
        metrics: webhookMetrics,
      });
      await v1.register(webhookDeliveriesRoutes, { db, now, cursorSecret, dispatcher: webhookDispatcher });
      await v1.register(keysRoutes, {
        db,
        now,
        cursorSecret,
        announceRevocation: (keyId) =>
          announceRevocation(verifier, redis, keyId, (error) => app.log.warn({ err: error }, 'could not publish a key revocation to the fleet')),
      });
    },
    { prefix: '/v1' },
  );
  // Off the request path: events older than EVENT_RETENTION_DAYS go, batch by batch.
  registerEventPurge(app, { db, retentionDays: config.eventRetentionDays ?? CONFIG_DEFAULTS.EVENT_RETENTION_DAYS, schedule: deps.eventPurgeSchedule });

  return app;
}

/** Redacts API keys in every string of a log line's fields, nested ones too; errors are left to their serializer. */
function redactLogFields<T extends object>(fields: T, depth = 0): T {
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(fields) as [string, unknown][]) {
    const redacted =
      typeof value === 'string'
        ? redactSecrets(value)
        : value !== null && typeof value === 'object' && !(value instanceof Error) && depth < 4
          ? redactLogFields(value, depth + 1)
          : value;
    if (redacted !== value) (copy ??= (Array.isArray(fields) ? [...fields] : { ...fields }) as Record<string, unknown>)[name] = redacted;
  }
  return (copy as T | undefined) ?? fields;
}

/** Trusts the nearest `hops` proxies (Fastify's types take a function for a hop count). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
