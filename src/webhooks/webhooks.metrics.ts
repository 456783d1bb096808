/**
 * The webhooks' metrics. Counters are this process's (summed over --workers, as every counter is):
 * - `animal_store_webhook_attempts_total{outcome}`: attempts by outcome: `succeeded` (a 2xx),
 *   `failed` (any other answer, a timeout, a connection error), `refused` (the address was not
 *   public at connection time: the SSRF check);
 * - `animal_store_webhook_deliveries_failed_total`: deliveries given up, their schedule done;
 * - `animal_store_webhook_endpoints_disabled_total{reason}`: `receiver_gone` (it answered 410) or
 *   `failing` (every attempt failed for 5 days);
 * - `animal_store_webhook_events_skipped_total`: events purged before they were fanned out;
 * - `animal_store_webhook_deliveries_unstarted_total`: claimed deliveries left unsent because too
 *   little of their lease was left to start an attempt (sent again once the lease ends);
 * - `animal_store_webhook_dispatch_rounds_failed_total`: dispatch rounds that failed (the database
 *   did not answer, say); the rounds then back off;
 * - `animal_store_webhook_url_checks_skipped_total`: registration URLs accepted without their DNS
 *   lookup, every lookup slot of the process taken (webhook-url-policy.ts);
 * - `animal_store_webhook_sends_refused_total{reason}`: sends refused a socket: `sockets` (the
 *   WEBHOOK_MAX_SOCKETS in use, or kept for endpoints with none in flight: the delivery waits for
 *   one), `descriptors` (the connection failed with EMFILE or ENFILE: a failed attempt, retried on
 *   the schedule).
 * `animal_store_webhook_deliveries_due` is read from the database at each scrape (at most
 * DUE_COUNT_CAP counted), the store's truth whatever process reads it: the sum over workers takes
 * the largest value.
 */
import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import { countDueDeliveries } from './webhook-claims.repository.js';

/** The most due deliveries one scrape counts: the gauge says "at least this many" beyond it. */
const DUE_COUNT_CAP = 100_000;

const ATTEMPT_OUTCOMES = ['succeeded', 'failed', 'refused'] as const;
const DISABLE_REASONS = ['receiver_gone', 'failing'] as const;
const REFUSAL_REASONS = ['sockets', 'descriptors'] as const;

export interface WebhookMetrics {
  attempts: Counter<'outcome'>;
  gaveUp: Counter;
  endpointsDisabled: Counter<'reason'>;
  eventsSkipped: Counter;
  unstarted: Counter;
  roundsFailed: Counter;
  urlChecksSkipped: Counter;
  sendsRefused: Counter<'reason'>;
}

/** The webhooks' metrics in `registry`, made once per registry (apps built on shared metrics reuse them). */
export function registerWebhookMetrics(registry: Registry, db: Kysely<Database>, now: () => number): WebhookMetrics {
  const existing = registry.getSingleMetric('animal_store_webhook_attempts_total');
  if (existing) {
    return {
      attempts: existing as Counter<'outcome'>,
      gaveUp: registry.getSingleMetric('animal_store_webhook_deliveries_failed_total') as Counter,
      endpointsDisabled: registry.getSingleMetric('animal_store_webhook_endpoints_disabled_total') as Counter<'reason'>,
      eventsSkipped: registry.getSingleMetric('animal_store_webhook_events_skipped_total') as Counter,
      unstarted: registry.getSingleMetric('animal_store_webhook_deliveries_unstarted_total') as Counter,
      roundsFailed: registry.getSingleMetric('animal_store_webhook_dispatch_rounds_failed_total') as Counter,
      urlChecksSkipped: registry.getSingleMetric('animal_store_webhook_url_checks_skipped_total') as Counter,
      sendsRefused: registry.getSingleMetric('animal_store_webhook_sends_refused_total') as Counter<'reason'>,
    };
  }
  const registers = [registry];
  const attempts = new Counter({
    name: 'animal_store_webhook_attempts_total',
    help: 'Webhook attempts by outcome: succeeded (2xx), failed, refused (not a public address).',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of ATTEMPT_OUTCOMES) attempts.inc({ outcome }, 0);
  const endpointsDisabled = new Counter({
    name: 'animal_store_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints the dispatcher disabled, by reason: receiver_gone (410) or failing (5 days).',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of DISABLE_REASONS) endpointsDisabled.inc({ reason }, 0);
  const sendsRefused = new Counter({
    name: 'animal_store_webhook_sends_refused_total',
    help: 'Webhook sends refused a socket: sockets (WEBHOOK_MAX_SOCKETS in use, or kept for endpoints with none in flight: the delivery waits for one), descriptors (EMFILE or ENFILE: a failed attempt, retried on the schedule).',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of REFUSAL_REASONS) sendsRefused.inc({ reason }, 0);
  new Gauge({
    name: 'animal_store_webhook_deliveries_due',
    help: `Webhook deliveries due and not yet sent (read from the database at each scrape, counted up to ${DUE_COUNT_CAP}).`,
    registers,
    aggregator: 'max',
    async collect() {
      // A database that does not answer leaves the last value for this scrape instead of failing it.
      const due = await countDueDeliveries(db, now(), DUE_COUNT_CAP).catch(() => undefined);
      if (due !== undefined) this.set(due);
    },
  });
  return {
    attempts,
    gaveUp: new Counter({
      name: 'animal_store_webhook_deliveries_failed_total',
      help: 'Webhook deliveries given up: every attempt of the retry schedule failed.',
      registers,
    }),
    endpointsDisabled,
    eventsSkipped: new Counter({
      name: 'animal_store_webhook_events_skipped_total',
      help: 'Events purged before the dispatcher fanned them out: no endpoint received them.',
      registers,
    }),
    unstarted: new Counter({
      name: 'animal_store_webhook_deliveries_unstarted_total',
      help: 'Claimed webhook deliveries left unsent: too little of the lease was left to start an attempt (sent again once it ends).',
      registers,
    }),
    roundsFailed: new Counter({
      name: 'animal_store_webhook_dispatch_rounds_failed_total',
      help: 'Webhook dispatch rounds that failed (the database did not answer, say); the next ones back off up to 30 s.',
      registers,
    }),
    urlChecksSkipped: new Counter({
      name: 'animal_store_webhook_url_checks_skipped_total',
      help: 'Webhook URLs accepted at registration without their DNS lookup: every lookup slot of the process was taken (each delivery checks the address again).',
      registers,
    }),
    sendsRefused,
  };
}
