/** SQL for the events feed. Every function takes the database (or a transaction) first. The rows are written by triggers (migration 2026-11-27T02-events), never here. */
import { type Kysely, sql } from 'kysely';
import type { Database, EventRow } from '../db/database.js';
import { firstRows, pageLimit } from '../db/page-limit.js';
import { isPostgres } from '../db/dialect.js';
import { currentSettledBound, keepSettledBy, withListingSnapshot } from '../db/visible-bound.js';

/** Where a reader of the feed stands: after the event with this (txn, id). (0, 0) is before every event. */
export interface EventPosition {
  txn: number;
  id: number;
}

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
   * full: the last event read, every event up to it read and settled, so the next answer may
   * start after it though none of these was of a type asked for.
   */
  readTo?: EventPosition;
}

/**
 * Events after `after` in the feed's order, (txn, id): on PostgreSQL txn is the writing
 * transaction's id plus the ids' offset, and a page stops before the first event a transaction
 * still running could yet commit (db/visible-bound.ts), so a reader never passes one; on SQLite txn
 * is 0 and ids commit in order. `types`, when given, keeps only those types, of at most
 * EVENTS_READ_PER_ANSWER events read in the walk's order.
 */
export async function findEventsAfter(db: Kysely<Database>, query: EventsAfterQuery): Promise<EventsAfter> {
  const { types } = query;
  if (types === undefined) return { rows: firstRows(await keepSettledBy(db, await selectEventsAfter(db, query).execute(), (row) => row.txn), query.limit) };
  const end = await positionAfter(db, query.after, EVENTS_READ_PER_ANSWER);
  // The last event read comes along whatever its type, so its settledness is known from this statement's snapshot.
  const kept = await keepSettledBy(db, await selectEventsAfter(db, { ...query, upTo: end }).execute(), (row) => row.txn);
  const rows = firstRows(
    kept.filter((row) => types.includes(row.type)),
    query.limit,
  );
  const last = kept.at(-1);
  const readToEnd = end !== undefined && rows.length < query.limit && last?.txn === end.txn && last.id === end.id;
  return readToEnd ? { rows, readTo: end } : { rows };
}

/** The statement of `findEventsAfter`, before the settled bound is applied (test/events/events.query-plan.test.ts explains it). */
export function selectEventsAfter(db: Kysely<Database>, query: EventsAfterQuery & { upTo?: EventPosition | undefined }) {
  const { after, upTo } = query;
  let select = withListingSnapshot(db, db.selectFrom('events').selectAll().where(afterPosition(db, after)));
  if (upTo !== undefined) {
    select = select.where(
      isPostgres(db) ? sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) <= (${upTo.txn}, ${upTo.id})` : sql<boolean>`${sql.ref('id')} <= ${upTo.id}`,
    );
  }
  const types = query.types;
  if (types !== undefined) {
    select = select.where((eb) =>
      upTo === undefined ? eb('type', 'in', types) : eb.or([eb('type', 'in', types), eb.and([eb('txn', '=', upTo.txn), eb('id', '=', upTo.id)])]),
    );
  }
  return select.orderBy('txn').orderBy('id').limit(pageLimit(query.limit));
}

function afterPosition(db: Kysely<Database>, after: EventPosition) {
  return isPostgres(db)
    ? sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) > (${after.txn}, ${after.id})`
    : // SQLite seeks a row value on its first column only, then reads every event of txn 0 (all
      // of them: SQLite never sets txn) up to the cursor; equality and range seek both columns.
      sql<boolean>`${sql.ref('txn')} = ${after.txn} and ${sql.ref('id')} > ${after.id}`;
}

/** The position of the `count`th event after `after` (read from the index alone), or undefined when fewer follow. */
async function positionAfter(db: Kysely<Database>, after: EventPosition, count: number): Promise<EventPosition | undefined> {
  return db
    .selectFrom('events')
    .select(['txn', 'id'])
    .where(afterPosition(db, after))
    .orderBy('txn')
    .orderBy('id')
    .limit(1)
    .offset(sql.lit(count - 1))
    .executeTakeFirst();
}

/**
 * The position after the newest event, where a reader starting "from now" stands. PostgreSQL: just
 * before the first txn a running transaction could still commit, so an event committing later is
 * never behind it (one that committed meanwhile may follow it: never missed, seldom early).
 * SQLite: the largest id committed.
 */
export async function latestEventPosition(db: Kysely<Database>): Promise<EventPosition> {
  const bound = await currentSettledBound(db);
  if (bound !== undefined) return { txn: Number(bound) - 1, id: Number.MAX_SAFE_INTEGER };
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return { txn: 0, id: row?.id ?? 0 };
}

/**
 * What a reader waiting at the end of the feed compares to know whether it may have grown: the
 * newest event and, while it is not yet settled on PostgreSQL, the settled bound too (an event
 * becomes readable when an older writer ends, with no new event). Equal texts: no event became
 * readable in between. Two index reads at most (one when the newest event is settled, the usual
 * case); events.wakeup.ts reads it once for all the waiters of a process.
 */
export async function readFeedFrontier(db: Kysely<Database>): Promise<string> {
  const newest = await withListingSnapshot(db, db.selectFrom('events').select(['txn', 'id']))
    .orderBy('txn', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (newest === undefined) return 'empty';
  const settled = (await keepSettledBy(db, [newest], (row) => row.txn)).length === 1;
  return settled ? `${newest.txn}:${newest.id}` : `${newest.txn}:${newest.id}<${String(await currentSettledBound(db))}`;
}

/** The types of the settled events after `after`, at most `max`, in the feed's order (for the metrics: only txn, id and type are read). */
export async function readEventTypesAfter(db: Kysely<Database>, after: EventPosition, max: number): Promise<{ txn: number; id: number; type: string }[]> {
  const rows = await withListingSnapshot(db, db.selectFrom('events').select(['txn', 'id', 'type']).where(afterPosition(db, after)))
    .orderBy('txn')
    .orderBy('id')
    .limit(max)
    .execute();
  return keepSettledBy(db, rows, (row) => row.txn);
}

/**
 * PostgreSQL: how long ago the oldest event that is committed but not yet readable was written
 * (behind an older writer still running: db/visible-bound.ts), in ms by the database's clock; 0
 * when there is none. It reads only the events at or above the settled bound, from the feed's
 * index: the events of transactions still ending. SQLite: always 0 (what is committed is readable).
 */
export async function feedLagMs(db: Kysely<Database>): Promise<number> {
  const bound = await currentSettledBound(db);
  if (bound === undefined) return 0;
  const { rows } = await sql<{ lag: number | null }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint - min(occurred_at) as lag
    from events where txn >= ${bound.toString()}::bigint`.execute(db);
  return Math.max(0, rows[0]?.lag ?? 0);
}
