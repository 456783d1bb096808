/**
 * The events feed's metrics, read when scraped (none costs a request anything):
 * - `animal_store_events_written_total{type}`: events recorded, by type. The rows are written by
 *   triggers in the writes' own transactions, so no service code sees them one by one: each scrape
 *   reads the types of the events after the last one counted (at most COUNT_PER_SCRAPE, the index
 *   only; a backlog is counted over several scrapes), from the process's first scrape on. Every
 *   process reads the same feed, so it is the store's count, whichever instance wrote: across
 *   --workers it is merged with max, and across instances take max() too, never sum().
 * - `animal_store_events_feed_lag_seconds` (PostgreSQL): how long the oldest committed event still
 *   without a position has waited for the sequencer: how late the feed is behind the writes.
 * - `animal_store_event_streams_open`, `animal_store_event_long_polls_waiting`: this process's
 *   live readers (summed over --workers).
 */
import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { type EventPosition, feedLagMs, newestEventPosition, readEventTypesAfter } from './events.repository.js';
import type { LiveReaders } from './events.readers.js';

/** Most events one scrape counts. */
const COUNT_PER_SCRAPE = 10_000;
const WRITTEN = 'animal_store_events_written_total';

export function registerEventsMetrics(registry: Registry, db: Kysely<Database>, readers: LiveReaders): void {
  // Apps built on shared metrics (a test's, a worker's) register them once.
  if (registry.getSingleMetric(WRITTEN)) return;
  let countedTo: EventPosition | undefined;
  new Counter({
    name: WRITTEN,
    help: "Events recorded in the feed, by type (the whole store's, read from the feed at each scrape since this process first counted).",
    labelNames: ['type'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      try {
        if (countedTo === undefined) {
          countedTo = await newestEventPosition(db);
          return;
        }
        const rows = await readEventTypesAfter(db, countedTo, COUNT_PER_SCRAPE);
        for (const row of rows) this.inc({ type: row.type });
        const last = rows.at(-1);
        if (last) countedTo = last.position;
      } catch {
        // A database that does not answer leaves the count where it was until the next scrape.
      }
    },
  });
  if (isPostgres(db)) {
    new Gauge({
      name: 'animal_store_events_feed_lag_seconds',
      help: 'Age of the oldest committed event not yet readable in the feed (waiting for the sequencer to give it its position).',
      registers: [registry],
      aggregator: 'max',
      async collect() {
        const lag = await feedLagMs(db).catch(() => undefined);
        if (lag !== undefined) this.set(lag / 1000);
      },
    });
  }
  new Gauge({
    name: 'animal_store_event_streams_open',
    help: 'Live streams of the events feed (text/event-stream) open now.',
    registers: [registry],
    collect() {
      this.set(readers.streams);
    },
  });
  new Gauge({
    name: 'animal_store_event_long_polls_waiting',
    help: 'Long polls of the events feed (wait=N) waiting for an event now.',
    registers: [registry],
    collect() {
      this.set(readers.waiting);
    },
  });
}
