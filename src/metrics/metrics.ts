/**
 * The service's Prometheus metrics: what is counted, under which names and labels, and how
 * the text an operator scrapes is made. It knows nothing of Fastify (request-metrics.ts counts
 * requests, metrics.routes.ts serves /metrics), so other modules can add their own metrics to
 * `registry` the same way.
 *
 * Every label takes few values, so a hostile client cannot grow the series without bound:
 * operations and routes are the service's own (an unknown path is `unmatched`, never its URL),
 * statuses and methods are the few HTTP has, and key ids of deprecated calls are capped.
 *
 * Modules add their own metrics to `registry`: the idempotency wiring (idempotency/idempotency.hooks.ts)
 * counts `animal_store_idempotent_replays_total{operation}`, and the orders module
 * (orders/orders.metrics.ts) reads `animal_store_orders{status}` from the database at scrape time.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/create-db.js';
import type { DialectName } from '../db/database-url.js';
import { droppedStdoutLogLines } from '../log-destination.js';
import { Tallies } from './tallies.js';

/** Distinct key ids kept as labels of deprecated calls per operation; later ones count under `other`. */
export const MAX_KEY_ID_LABELS = 100;
const OVERFLOW_KEY_ID = 'other';

/** Latency buckets in seconds: from a cached read (~1 ms) to the statement timeout (5 s) and beyond. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  /** Unset only where no database handle is at hand (some tests); then no animal_store_db_info. */
  dialect?: DialectName | undefined;
  /** The PostgreSQL pool's clients now; SQLite has no pool (see docs/operations.md, "Metrics and logs"). */
  poolStats?: (() => PoolStats) | undefined;
}

export interface AppMetrics {
  /** The service's own metrics; another module adds one with `registers: [metrics.registry]`. */
  registry: Registry;
  requests: Counter<'operation' | 'status'>;
  /**
   * The tally of answers of one operation with one status: each call counts one answer into
   * `requests`, without prom-client's hashing of a labels object per answer (the tallies are
   * added to the counter when it is read). One tally per operation and status, made once.
   */
  countAnswerOf(operation: string, status: number): () => void;
  duration: Histogram<'method' | 'route'>;
  rateLimited: Counter<'operation'>;
  /** Counts a call of a deprecated operation by the key that made it (capped, see MAX_KEY_ID_LABELS). */
  countDeprecatedCall(operation: string, keyId: number): void;
  /** Every registry scraped together: the service's and the process's. */
  registries(): Registry[];
  /** The Prometheus text exposition of this process; a function property, handed on as a callback. */
  render: () => Promise<string>;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

export function createMetrics(options: MetricsOptions): AppMetrics {
  const registry = new Registry();
  const registers = [registry];

  // Answers per operation and status; bounded by the service's operations times the statuses it
  // answers with (both its own, whatever clients send).
  const answerTallies = new Tallies<'operation' | 'status'>();
  const requests = new Counter({
    name: 'animal_store_http_requests_total',
    help: 'Requests answered, by operation (the OpenAPI operationId, else the route, else unmatched or cors_preflight) and status.',
    labelNames: ['operation', 'status'] as const,
    registers,
    collect() {
      answerTallies.addTo(this);
    },
  });
  const countAnswerOf = (operation: string, status: number) => answerTallies.of(`${operation} ${status}`, { operation, status });
  const duration = new Histogram({
    name: 'animal_store_http_request_duration_seconds',
    help: 'Time from the request arriving to the answer sent, by method and route pattern (unmatched for unknown paths).',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rateLimited = new Counter({
    name: 'animal_store_rate_limited_total',
    help: 'Requests refused with 429 rate_limited, by operation.',
    labelNames: ['operation'] as const,
    registers,
  });
  // Bounded as the labels are: operations times MAX_KEY_ID_LABELS + 1.
  const deprecatedTallies = new Tallies<'operation' | 'key_id'>();
  new Counter({
    name: 'animal_store_deprecated_calls_total',
    help: `Calls of deprecated operations, by operation and API key id (the first ${MAX_KEY_ID_LABELS} key ids per operation in this process; later ones under key_id="${OVERFLOW_KEY_ID}").`,
    labelNames: ['operation', 'key_id'] as const,
    registers,
    collect() {
      deprecatedTallies.addTo(this);
    },
  });
  new Counter({
    name: 'animal_store_log_lines_dropped_total',
    help: 'Log lines this process dropped because standard output could not take them (a reader that stopped reading, or went away).',
    registers,
    // Read when scraped from the process's one stdout writer (log-destination.ts), which counts
    // whatever app writes through it: the request path pays nothing for it.
    collect() {
      this.reset();
      this.inc(droppedStdoutLogLines());
    },
  });
  if (options.dialect !== undefined) {
    new Gauge({
      name: 'animal_store_db_info',
      help: 'The database dialect in use (always 1).',
      labelNames: ['dialect'] as const,
      registers,
    }).set({ dialect: options.dialect }, 1);
  }

  const poolStats = options.poolStats;
  if (poolStats) {
    // Read when scraped, so the request path pays nothing for them.
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(poolStats()));
        },
      });
    poolGauge('animal_store_db_pool_clients', 'PostgreSQL clients open in this process (idle or busy).', (s) => s.total);
    poolGauge('animal_store_db_pool_idle_clients', 'PostgreSQL clients open and idle.', (s) => s.idle);
    poolGauge('animal_store_db_pool_waiting_queries', 'Queries waiting for a PostgreSQL client because all are busy.', (s) => s.waiting);
    poolGauge('animal_store_db_pool_max_clients', 'Most PostgreSQL clients this process opens (DATABASE_POOL_MAX).', (s) => s.max);
  }

  const labelledKeys = new Map<string, Set<string>>();
  const countDeprecatedCall = (operation: string, keyId: number) => {
    let seen = labelledKeys.get(operation);
    if (!seen) labelledKeys.set(operation, (seen = new Set()));
    let label = String(keyId);
    if (!seen.has(label)) {
      if (seen.size < MAX_KEY_ID_LABELS) seen.add(label);
      else label = OVERFLOW_KEY_ID;
    }
    deprecatedTallies.of(`${operation} ${label}`, { operation, key_id: label })();
  };

  const registries = () => [registry, processRegistry()];
  return {
    registry,
    requests,
    countAnswerOf,
    duration,
    rateLimited,
    countDeprecatedCall,
    registries,
    render: async () => (await Promise.all(registries().map((r) => r.metrics()))).join('\n'),
  };
}

let processMetrics: Registry | undefined;

/**
 * Node's and the process's own metrics (CPU, memory, event-loop lag, GC, handles), once per
 * process: every app built in it (tests build many) shares them, instead of each starting its
 * own event-loop and GC observers.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}
