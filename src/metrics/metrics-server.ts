/**
 * The metrics alone on METRICS_PORT, so the main port can face the internet while scrapers use
 * a port only the operator's network reaches. A small server of its own: /metrics and nothing
 * else, errors in the one Error shape, the main server's logger.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { registerErrorHandling } from '../http/error-handler.js';
import { metricsRoutes, type MetricsRoutesOptions } from './metrics.routes.js';

export async function buildMetricsServer(options: MetricsRoutesOptions & { logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  // Scrapes come every few seconds: no log line each.
  const app = Fastify({ loggerInstance: options.logger.child({ server: 'metrics' }), logController: new LogController({ disableRequestLogging: true }) });
  registerErrorHandling(app);
  await app.register(metricsRoutes, { render: options.render, token: options.token });
  return app;
}

/** Listens, saying so in words of its own: "Server listening at" belongs to the API's port, which tools and tests look for. */
export async function listenForScrapes(server: FastifyInstance, port: number, host: string): Promise<void> {
  await server.listen({ port, host, listenTextResolver: (address) => `Metrics listening at ${address}/metrics` });
}
