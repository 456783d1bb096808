/**
 * `GET /`: where a person (or a crawler) who opens the service's address finds the docs, the
 * contract, the API and the health checks, instead of a bare 404. Outside /v1, without a key, not
 * counted against any quota, and not an API operation: hidden from openapi.json like /healthz
 * (its paths are relative to the server URL, which ends in /v1). A test follows every link.
 */
import type { FastifyInstance } from 'fastify';

const SERVICE_INDEX = {
  name: 'Animal Store API',
  links: { docs: '/docs', openapi: '/v1/openapi.json', api: '/v1', health: '/healthz', ready: '/readyz' },
  authentication:
    'Every /v1 operation needs an API key, sent as Authorization: Bearer <API_KEY>; the operator makes one with animal-store keys create --name NAME.',
} as const;

export function registerServiceIndex(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async () => SERVICE_INDEX);
}
