/**
 * The methods each path really allows, learnt from the routes as they are added, for answers
 * that must name them (a CORS preflight's Allow-Methods). Register before any route.
 */
import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

/** Answers a function telling the methods routed at a concrete path (`/v1/pets/7`), none for an unknown path. */
export function trackRouteMethods(app: FastifyInstance): (path: string) => string[] {
  const paths = FindMyWay();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat().map((m) => m.toUpperCase() as HTTPMethod)) {
      if (!paths.hasRoute(method, route.url)) paths.on(method, route.url, () => {});
    }
  });
  return (path) => METHODS.filter((method) => paths.find(method, path) !== null);
}
