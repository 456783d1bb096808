/** The name of the operation a request asked for, as the metrics and their labels call it. */
import type { FastifyRequest } from 'fastify';
import { isPreflight } from './cors-policy.js';

/** The operation label: the OpenAPI operationId, else the route pattern, else what kind of unrouted request. */
export function operationOf(request: FastifyRequest): string {
  const { schema, url } = request.routeOptions;
  const operationId = (schema as { operationId?: unknown } | undefined)?.operationId;
  if (typeof operationId === 'string') return operationId;
  if (url !== undefined) return url;
  return isPreflight(request.method, request.headers) ? 'cors_preflight' : 'unmatched';
}
