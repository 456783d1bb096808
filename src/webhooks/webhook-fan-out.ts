/**
 * The fan-out: the feed's events become deliveries, one per (event, enabled endpoint whose types
 * include it), exactly once whatever the number of instances doing it.
 *
 * A batch is one short write transaction: it locks the position in `webhook_dispatch` (FOR UPDATE
 * on PostgreSQL; SQLite's write transaction locks the file), reads the next events after it with
 * the feed's own reader (events.repository.ts `findEventsAfter`), inserts their deliveries and
 * moves the position past them. Two
 * instances take turns on the lock, each starting where the other ended; a crash mid-batch rolls
 * the whole batch back. An endpoint receives the types its events ask for (`pet.*` expanded) that
 * its creator could read when it was made (`allowed_types`).
 *
 * Events purged before they were fanned out (a dispatcher stopped for longer than
 * EVENT_RETENTION_DAYS) are lost to webhooks: the position jumps to the purged one, logged and
 * counted, as a feed reader gets 410 `cursor_expired`.
 */
import type { Kysely } from 'kysely';
import type { Database, NewWebhookDeliveryRow } from '../db/database.js';
import { writeTransaction } from '../db/dialect.js';
import { findEventsAfter, newestEventPosition } from '../events/events.repository.js';
import { readPurged } from '../events/events.retention.js';
import { toEvent } from '../events/events.service.js';
import { expandTypeFilter, type EventTypeFilter } from '../events/events.types.js';
import {
  type FanOutEndpoint,
  findEnabledEndpoints,
  insertDeliveries,
  lockFannedPosition,
  moveFannedPosition,
  moveFannedPositionForward,
  readFannedPosition,
} from './webhook-dispatch.repository.js';

/** Events per fan-out batch at most (the feed's largest page), and deliveries: fewer events when many endpoints receive them. */
const FAN_OUT_EVENTS = 100;
const FAN_OUT_DELIVERIES = 2000;

export interface FanOutOptions {
  now: number;
  /** When the first attempt of a new delivery is due (the schedule's first wait, jittered). */
  firstAttemptAt: () => number;
}

export interface FanOutBatch {
  /** Events read. */
  events: number;
  /** The batch read all it could: more events may follow. */
  full: boolean;
  deliveries: number;
  /** Set when the position jumped over purged events: where it was. */
  skippedPurgedFrom?: number;
}

/** The `webhook-id` of an event's deliveries: the same on every attempt and for every endpoint. */
function eventMessageId(eventId: number): string {
  return `evt_${eventId}`;
}

/**
 * When no enabled endpoint receives anything: moves the position past every event readable now,
 * in one statement, without a write transaction held across reads, and answers true. The newest
 * position is read before the endpoints, as in `fanOutBatch`, so an endpoint made after that read
 * misses only events readable before it existed. Answers false, moving nothing, when some endpoint receives.
 */
export async function passOverWhenNobodyReceives(db: Kysely<Database>): Promise<boolean> {
  const latest = await newestEventPosition(db);
  if ((await findEnabledEndpoints(db)).some((endpoint) => receivedTypes(endpoint).types.size > 0)) return false;
  if ((await readFannedPosition(db)) < latest) await moveFannedPositionForward(db, latest);
  return true;
}

/** Whether events follow the fanned-out position: a read, so an idle dispatcher takes no write lock. */
export async function hasEventsToFanOut(db: Kysely<Database>): Promise<boolean> {
  const after = await readFannedPosition(db);
  return (await findEventsAfter(db, { after, limit: 1 })).rows.length > 0;
}

export async function fanOutBatch(db: Kysely<Database>, options: FanOutOptions): Promise<FanOutBatch> {
  return writeTransaction(db, async (trx) => {
    let after = await lockFannedPosition(trx);
    const result: FanOutBatch = { events: 0, full: false, deliveries: 0 };
    const purged = (await readPurged(trx)).position;
    if (after < purged) {
      result.skippedPurgedFrom = after;
      after = purged;
    }
    // Read before the endpoints: an endpoint made after that read is made after every event up to
    // this position was readable, so skipping them for it is right (it receives what happens after it exists).
    const latest = await newestEventPosition(trx);
    const endpoints = (await findEnabledEndpoints(trx)).map(receivedTypes).filter((endpoint) => endpoint.types.size > 0);
    if (endpoints.length === 0) {
      // Nobody to send to: the events up to now are passed over without being read.
      if (after < latest) await moveFannedPosition(trx, latest);
      return result;
    }
    const limit = Math.max(1, Math.min(FAN_OUT_EVENTS, Math.floor(FAN_OUT_DELIVERIES / endpoints.length)));
    const { rows } = await findEventsAfter(trx, { after, limit });
    result.events = rows.length;
    result.full = rows.length === limit;
    const last = rows.at(-1);
    if (last === undefined) {
      if (result.skippedPurgedFrom !== undefined) await moveFannedPosition(trx, after);
      return result;
    }
    const deliveries: NewWebhookDeliveryRow[] = [];
    for (const row of rows) {
      const receivers = endpoints.filter((endpoint) => endpoint.types.has(row.type));
      if (receivers.length === 0) continue;
      const payload = JSON.stringify(toEvent(row));
      for (const endpoint of receivers) {
        deliveries.push({
          endpointId: endpoint.id,
          messageId: eventMessageId(row.id),
          eventId: row.id,
          eventType: row.type,
          payload,
          state: 'pending',
          nextAttemptAt: options.firstAttemptAt(),
          createdAt: options.now,
        });
      }
    }
    await insertDeliveries(trx, deliveries);
    await moveFannedPosition(trx, last.position);
    result.deliveries = deliveries.length;
    return result;
  });
}

/** The types an endpoint receives: those its patterns name that its creator could read. */
function receivedTypes(endpoint: FanOutEndpoint): { id: number; types: Set<string> } {
  const allowed = new Set(parseStringArray(endpoint.allowedTypes));
  const asked = expandTypeFilter(parseStringArray(endpoint.events) as EventTypeFilter[]);
  return { id: endpoint.id, types: new Set(asked.filter((type) => allowed.has(type))) };
}

function parseStringArray(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
