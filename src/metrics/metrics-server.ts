/**
 * The metrics alone on METRICS_PORT, so the main port can face the internet while scrapers use
 * a port only the operator's network reaches. A small server of its own: /metrics and nothing
 * else, errors in the one Error shape, the main server's logger.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerErrorHandling } from '../http/error-handler.js';
import { metricsRoutes, type MetricsRoutesOptions } from './metrics.routes.js';

export async function buildMetricsServer(options: MetricsRoutesOptions & { logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: options.logger.child({ server: 'metrics' }), disableRequestLogging: true });
  registerErrorHandling(app);
  await app.register(metricsRoutes, { render: options.render, token: options.token });
  return app;
}
