/**
 * GET /metrics: the Prometheus text, outside /v1 and the API document, needing no API key.
 * With METRICS_TOKEN set it needs `Authorization: Bearer <METRICS_TOKEN>` instead, and answers
 * 401 in the Error shape otherwise. Served on the main port, or alone on METRICS_PORT.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../errors.js';
import { bearerTokenOf } from '../access/authentication.js';
import { METRICS_CONTENT_TYPE } from './metrics.js';

export interface MetricsRoutesOptions {
  /** The exposition text: this process's, or the whole cluster's when served by the primary. */
  render: () => Promise<string>;
  token: string | undefined;
}

export const metricsRoutes: FastifyPluginAsync<MetricsRoutesOptions> = async (app, { render, token }) => {
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    if (expected !== undefined) {
      const given = bearerTokenOf(request.headers.authorization);
      // Compared as digests of equal length, in constant time, so timing tells nothing of the token.
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        reply.header('www-authenticate', 'Bearer realm="animal-store-metrics"');
        throw new AppError('unauthorized', 'the metrics need Authorization: Bearer <METRICS_TOKEN>');
      }
    }
    return reply
      .type(METRICS_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send(await render());
  });
};

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
