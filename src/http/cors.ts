/**
 * CORS for the /v1 API (cors-policy.ts holds the rules). Written here rather than taken from
 * @fastify/cors because a preflight must name the methods its path really allows, and because
 * that plugin's catch-all OPTIONS route would turn every unknown path's 404 into a 405.
 *
 * - A preflight from an allowed origin answers 204 with the Allow-* headers, before any key
 *   check or rate limit (browsers never send credentials on a preflight).
 * - A preflight from any other origin answers 204 without any Access-Control-* header: the
 *   browser then refuses the call itself, and the answer does not tell which origins are allowed.
 * - A preflight for a path with no operation falls through to the usual 404 `route_not_found`.
 * - Every other /v1 answer to an allowed origin, errors included, carries Allow-Origin and
 *   Expose-Headers: the headers are set when the request arrives, so every later error keeps them.
 * With no origins configured the step is left out, and preflights get the 405 they always got.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actualResponseHeaders, allowedOriginFor, type CorsOrigins, isPreflight, preflightHeaders } from './cors-policy.js';
import type { RouteTable } from './route-table.js';

const API_PREFIX = '/v1/';

/** Sets a request's CORS headers; true when it was a preflight, now answered. */
export type CorsStep = (request: FastifyRequest, reply: FastifyReply) => boolean;

/** The CORS step of the "identify" phase (request-pipeline.ts); undefined when no origin is configured. */
export function createCors(origins: CorsOrigins, routes: RouteTable): CorsStep | undefined {
  if (origins !== '*' && origins.length === 0) return undefined;

  return (request, reply) => {
    if (!request.url.startsWith(API_PREFIX)) return false;
    // A listed origin changes the answer, so caches must key it by Origin; `*` answers all alike.
    if (origins !== '*') addVary(reply, 'Origin');
    const origin = request.headers.origin;
    const allowOrigin = allowedOriginFor(origins, origin);

    if (isPreflight(request.method, request.headers)) {
      const methods = routes.methodsAt(request.url.split('?')[0]!);
      if (methods.length === 0) return false;
      addVary(reply, 'Access-Control-Request-Method', 'Access-Control-Request-Headers');
      if (allowOrigin !== undefined) reply.headers(preflightHeaders(allowOrigin, methods));
      reply.code(204).send();
      return true;
    }
    if (allowOrigin !== undefined) reply.headers(actualResponseHeaders(allowOrigin));
    return false;
  };
}

function addVary(reply: FastifyReply, ...names: string[]): void {
  const current = reply.getHeader('vary');
  reply.header('vary', [current, ...names].filter((part) => part !== undefined && part !== '').join(', '));
}
