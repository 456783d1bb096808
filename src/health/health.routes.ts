/** Liveness and readiness for load balancers and orchestrators; outside /v1 and without a key. */
import type { FastifyPluginAsync } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';

export const healthRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  // Alive: the process answers. It never touches the database, so a database outage does not
  // make an orchestrator restart healthy processes.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Ready: this instance can serve requests now, so a load balancer should send it traffic.
  app.get('/readyz', { schema: { hide: true } }, async () => {
    try {
      await sql`select 1`.execute(db);
    } catch {
      throw new AppError('service_unavailable', 'the database is not reachable');
    }
    return { status: 'ready' };
  });
};
