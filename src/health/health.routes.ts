/** Liveness and readiness for load balancers and orchestrators; outside /v1 and without a key. */
import type { FastifyPluginAsync } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { ListingHolds } from '../db/listing-holds.js';
import { AppError } from '../errors.js';

export const healthRoutes: FastifyPluginAsync<{ db: Kysely<Database>; listingHolds?: Pick<ListingHolds, 'overdue'> }> = async (app, { db, listingHolds }) => {
  // Alive: the process answers. It never touches the database, so a database outage does not
  // make an orchestrator restart healthy processes.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Ready: this instance can serve requests now, so a load balancer should send it traffic.
  // A transaction holding the listings back (db/listing-holds.ts) is shown, but the answer stays
  // 200: every instance sees the same database, and a fleet leaving its load balancer over one
  // forgotten session would stop serving altogether.
  app.get('/readyz', { schema: { hide: true } }, async () => {
    try {
      await sql`select 1`.execute(db);
    } catch {
      throw new AppError('service_unavailable', 'the database is not reachable');
    }
    const held = listingHolds?.overdue() ?? [];
    if (held.length === 0) return { status: 'ready' };
    return { status: 'ready', listingsHeldBack: { oldestAgeMs: held[0]!.ageMs, transactions: held } };
  });
};
