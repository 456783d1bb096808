/**
 * Counts every answer into the metrics (metrics.ts), in one onResponse hook: a few map lookups
 * per request, after the answer has gone out. Rate-limit refusals are recognised by their
 * answer (429 with code rate_limited), so the rate limiter itself knows nothing of metrics.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isPreflight } from '../http/cors-policy.js';
import type { AppMetrics } from './metrics.js';

const RATE_LIMITED_BODY = '"code":"rate_limited"';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on answers refused by the rate limiter, for the metrics. */
    wasRateLimited?: boolean;
  }
}

/** The operation label: the OpenAPI operationId, else the route pattern, else what kind of unrouted request. */
export function operationOf(request: FastifyRequest): string {
  const { schema, url } = request.routeOptions;
  const operationId = (schema as { operationId?: unknown } | undefined)?.operationId;
  if (typeof operationId === 'string') return operationId;
  if (url !== undefined) return url;
  return isPreflight(request.method, request.headers) ? 'cors_preflight' : 'unmatched';
}

export function registerMetricsHooks(app: FastifyInstance, metrics: AppMetrics): void {
  app.decorateRequest('wasRateLimited', false);
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 429 && typeof payload === 'string' && payload.includes(RATE_LIMITED_BODY)) request.wasRateLimited = true;
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const operation = operationOf(request);
    metrics.requests.inc({ operation, status: reply.statusCode });
    metrics.duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched' }, reply.elapsedTime / 1000);
    if (request.wasRateLimited) metrics.rateLimited.inc({ operation });
    if ((request.routeOptions.schema as { deprecated?: unknown } | undefined)?.deprecated === true && request.apiKey) {
      metrics.countDeprecatedCall(operation, request.apiKey.id);
    }
    done();
  });
}
