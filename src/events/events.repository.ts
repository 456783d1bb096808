/**
 * SQL for the events feed. Every function takes the database (or a transaction) first. The rows
 * are written by triggers (migration 2026-11-27T02-events) and numbered with their feed position
 * by a trigger on SQLite or by the sequencer on PostgreSQL (events.sequencer.ts), never here.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, EventRow } from '../db/database.js';
import { databaseClockMs } from '../db/dialect.js';
import { compiledQuery, type CompiledQueryOf } from '../db/compiled-query.js';
import { firstRows, pageLimit, pageLimitRows } from '../db/page-limit.js';

/**
 * Where a reader of the feed stands: after the event at this position. 0 is before every event.
 * Positions only grow, and one once readable is never preceded by one readable later
 * (docs/architecture.md, "The events feed").
 */
export type EventPosition = number;

/**
 * Most events one answer with a type filter reads. A filter that matches few events (a rare type;
 * a key that reads pet events in a store busy with orders) otherwise read the whole feed after
 * the cursor at every answer, an idle reader's long poll included; so the answer stops after this
 * many and tells where it stopped, and the next one starts there.
 */
export const EVENTS_READ_PER_ANSWER = 1_000;

export interface EventsAfterQuery {
  after: EventPosition;
  types?: readonly string[] | undefined;
  limit: number;
}

export interface EventsAfter {
  rows: EventRow[];
  /**
   * With a type filter, when the answer stopped at EVENTS_READ_PER_ANSWER with its page not
   * full: the position of the last event read, so the next answer may start after it though none
   * of these was of a type asked for.
   */
  readTo?: EventPosition;
}

/** Numbered events after `after` in position order; `types`, when given, keeps only those types, of at most EVENTS_READ_PER_ANSWER events read. */
export async function findEventsAfter(db: Kysely<Database>, query: EventsAfterQuery): Promise<EventsAfter> {
  const { types } = query;
  if (types === undefined) return { rows: firstRows(await eventsAfter(db, query), query.limit) };
  const end = await positionAfter(db, query.after, EVENTS_READ_PER_ANSWER);
  const rows = firstRows(await eventsAfter(db, { ...query, upTo: end }), query.limit);
  return end !== undefined && rows.length < query.limit ? { rows, readTo: end } : { rows };
}

/**
 * selectEventsAfter compiled once per shape (db/compiled-query.ts): a stream catching up reads a
 * page at every turn, and building the statement with Kysely, then naming each row's columns
 * through its plugin, cost about as much as the page's rows. Shapes are few: every type, or 1 to
 * all but one of them, with or without `upTo`, times the LIMITs of db/page-limit.ts.
 */
const eventsAfterByShape = new Map<string, CompiledQueryOf<Record<string, unknown>, EventRow>>();

function eventsAfter(db: Kysely<Database>, query: EventsAfterQuery & { upTo?: EventPosition | undefined }): Promise<EventRow[]> {
  const typeCount = query.types?.length;
  const hasUpTo = query.upTo !== undefined;
  const limit = pageLimitRows(query.limit);
  const shape = `${typeCount ?? 'all'},${hasUpTo},${limit}`;
  let compiled = eventsAfterByShape.get(shape);
  if (compiled === undefined) {
    compiled = compiledQuery<Database, Record<string, unknown>, EventRow>((db, value) =>
      selectEventsAfter(db, {
        after: value('after') as EventPosition,
        upTo: hasUpTo ? (value('upTo') as EventPosition) : undefined,
        types: typeCount === undefined ? undefined : Array.from({ length: typeCount }, (_, i) => value(`type${i}`) as string),
        limit,
      }),
    );
    eventsAfterByShape.set(shape, compiled);
  }
  const values: Record<string, unknown> = { after: query.after, upTo: query.upTo };
  query.types?.forEach((type, i) => (values[`type${i}`] = type));
  return compiled.execute(db, values);
}

/** The statement of `findEventsAfter` (test/events/events.query-plan.test.ts explains it). */
export function selectEventsAfter(db: Kysely<Database>, query: EventsAfterQuery & { upTo?: EventPosition | undefined }) {
  let select = db.selectFrom('events').selectAll().where('position', '>', query.after);
  if (query.upTo !== undefined) select = select.where('position', '<=', query.upTo);
  if (query.types !== undefined) select = select.where('type', 'in', query.types);
  return select.orderBy('position').limit(pageLimit(query.limit));
}

/** The position of the `count`th event after `after` (read from the index alone), or undefined when fewer follow. */
async function positionAfter(db: Kysely<Database>, after: EventPosition, count: number): Promise<EventPosition | undefined> {
  const row = await db
    .selectFrom('events')
    .select('position')
    .where('position', '>', after)
    .orderBy('position')
    .limit(1)
    .offset(sql.lit(count - 1))
    .executeTakeFirst();
  return row?.position;
}

/**
 * The position of the newest numbered event, where a reader starting "from now" stands: an event
 * not numbered yet will be numbered after it. 0 when the feed is empty.
 */
export async function newestEventPosition(db: Kysely<Database>): Promise<EventPosition> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('position').as('position'))
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}

/**
 * What a reader waiting at the end of the feed compares to know whether it may have grown: the
 * newest position (one index read). events.wakeup.ts reads it once for all the waiters of a process.
 */
export async function readFeedFrontier(db: Kysely<Database>): Promise<string> {
  return String(await newestEventPosition(db));
}

/** The types of the numbered events after `after`, at most `max`, in the feed's order (for the metrics: only position and type are read). */
export async function readEventTypesAfter(db: Kysely<Database>, after: EventPosition, max: number): Promise<{ position: number; type: string }[]> {
  return db.selectFrom('events').select(['position', 'type']).where('position', '>', after).orderBy('position').limit(max).execute();
}

/**
 * How long ago the oldest committed event still without a position was written, in ms by the
 * database's clock; 0 when there is none. Only PostgreSQL has such events, between a commit and
 * the sequencer's next round (events_unpositioned_idx reads them alone); on SQLite always 0.
 */
export async function feedLagMs(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ lag: number | null }>`select ${databaseClockMs(db)} - min(occurred_at) as lag from events where position is null`.execute(db);
  return Math.max(0, Number(rows[0]?.lag ?? 0));
}
