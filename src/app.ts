/**
 * Builds the application as a Fastify instance without listening, so tests `inject()` into the
 * real thing and `server.ts` only boots it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SchemaObject } from 'ajv';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { healthRoutes } from './health/health.routes.js';
import { registerBearerAuth } from './http/auth.js';
import { stdoutLogDestination } from './log-destination.js';
import { IDLE_GRACE_MS, registerConnectionDrain } from './http/connection-drain.js';
import { registerExpectContinue } from './http/expect-continue.js';
import { LINGER_LIMITS, registerLingeringClose } from './http/lingering-close.js';
import { ErrorSchema } from './http/responses.js';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerResponseHeaders, requestIdOf } from './http/request-context.js';
import { createValidatorCompiler } from './http/validation.js';
import { createKeyVerifier } from './keys/keys.service.js';
import { petsRoutes } from './pets/pets.routes.js';
import { NewPetSchema, PetSchema, PetsSchema, PetStatusSchema } from './pets/pets.schemas.js';

export interface AppDeps {
  db: Kysely<Database>;
  config: Pick<
    Config,
    'logLevel' | 'bodyLimitBytes' | 'publicBaseUrl' | 'stagingBaseUrl' | 'keyCacheTtlMs' | 'rateLimitPerMinute' | 'trustProxy' | 'shutdownTimeoutMs'
  >;
  /** The clock, in epoch milliseconds; tests move it to check expiry and the sunset date. */
  now?: () => number;
  /** Where log lines go; the default is standard output. */
  logStream?: NodeJS.WritableStream;
  /** How long a client has to send its whole request, headers and body; tests shorten it. */
  requestTimeoutMs?: number;
}

/** The documented bound (README, error `request_timeout`) for a request to arrive completely. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Schemas named in the OpenAPI components and referenced by `$ref` from the routes. */
const SHARED_SCHEMAS = [PetStatusSchema, NewPetSchema, PetSchema, PetsSchema, ErrorSchema] as SchemaObject[];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps;
  const now = deps.now ?? Date.now;
  const requestTimeout = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: deps.logStream ?? stdoutLogDestination(),
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
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
    http: { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout) },
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
  registerExpectContinue(app);
  registerLingeringClose(app, LINGER_LIMITS);
  registerResponseHeaders(app);
  // Half the shutdown timeout at most, so idle connections alone never make a stop time out.
  registerConnectionDrain(app, { idleGraceMs: Math.min(IDLE_GRACE_MS, config.shutdownTimeoutMs / 2) });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        route: request.routeOptions.url,
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
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
      // Before auth: its onRequest hook turns away addresses whose keys keep failing verification.
      registerRateLimit(v1, { limitPerMinute: config.rateLimitPerMinute, now, verifier });
      registerBearerAuth(v1, verifier);
      await v1.register(petsRoutes, { db, now });
    },
    { prefix: '/v1' },
  );

  return app;
}

/** Trusts the nearest `hops` proxies (Fastify's types take a function for a hop count). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
