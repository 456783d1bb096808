/**
 * Counts one answer into the metrics (metrics.ts): a few map lookups per request, called by the
 * completion phase of request-pipeline.ts after the answer has gone out. Rate-limit refusals are
 * recognised by their status: errors.ts gives 429 to `rate_limited` alone (a test holds it so),
 * so the rate limiter itself knows nothing of metrics.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../errors.js';
import { operationOf } from '../http/operation-label.js';
import type { AppMetrics } from './metrics.js';

const RATE_LIMITED_STATUS = ERROR_CODES.rate_limited.status;

export function countAnswer(metrics: AppMetrics, request: FastifyRequest, reply: FastifyReply): void {
  const operation = operationOf(request);
  metrics.requests.inc({ operation, status: reply.statusCode });
  metrics.duration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched' }, reply.elapsedTime / 1000);
  if (reply.statusCode === RATE_LIMITED_STATUS) metrics.rateLimited.inc({ operation });
  if ((request.routeOptions.schema as { deprecated?: unknown } | undefined)?.deprecated === true && request.apiKey) {
    metrics.countDeprecatedCall(operation, request.apiKey.id);
  }
}
