/**
 * `animal_store_orders{status}`: the orders in each status, read from the database when scraped
 * (one grouped query per scrape, none per request), so it is the store's truth whatever instance
 * or process made the orders. Across --workers every worker reads the same table, so the sum over
 * workers takes the largest value rather than adding them.
 */
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import { countOrdersByStatus } from './orders.repository.js';
import { ORDER_STATUSES } from './orders.state-machine.js';

const NAME = 'animal_store_orders';

export function registerOrdersMetrics(registry: Registry, db: Kysely<Database>): void {
  // Apps built on shared metrics (a test's, a worker's) register it once.
  if (registry.getSingleMetric(NAME)) return;
  new Gauge({
    name: NAME,
    help: 'Orders of the store in each status (read from the database at each scrape).',
    labelNames: ['status'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      // A database that does not answer leaves the gauge empty for this scrape instead of failing it.
      const counts = await countOrdersByStatus(db).catch(() => undefined);
      if (!counts) return;
      for (const status of ORDER_STATUSES) this.set({ status }, counts.find((c) => c.status === status)?.count ?? 0);
    },
  });
}
