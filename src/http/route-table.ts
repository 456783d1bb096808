/**
 * The one table of which methods each path allows: the `Allow` of a 405 (error-handler.ts) and
 * the Allow-Methods of a CORS preflight (cors.ts), the two questions Fastify's router does not
 * answer itself. It asks that very router (`findRoute`) once per method rather than matching
 * patterns of its own, so it agrees with the routing on every path the router reads: empty
 * parameters (`/v1/pets/` reaches getPet), absolute-form URLs, percent-encoding, wildcards,
 * routes added by plugins under prefixes and HEAD routes. Nothing is kept per request.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';

const HTTP_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const satisfies HTTPMethods[];

export interface RouteTable {
  /** The methods routed at a concrete path (`/v1/pets/7`), in HTTP_METHODS order; none for an unknown path. */
  methodsAt(path: string): string[];
}

export function createRouteTable(app: FastifyInstance): RouteTable {
  return {
    methodsAt(path) {
      return HTTP_METHODS.filter((method) => routed(app, method, path));
    },
  };
}

function routed(app: FastifyInstance, method: HTTPMethods, url: string): boolean {
  // For a URL that does not decode or a parameter over maxParamLength the router finds a
  // stand-in (its handler answers 400), which has no searchParams: no route is there.
  return app.findRoute({ method, url })?.searchParams !== undefined;
}
