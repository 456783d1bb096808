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
 * Events after `after` in the feed's order, (txn, id): on PostgreSQL txn is the writing
 * transaction's id plus the ids' offset, and a page stops before the first event a transaction
 * still running could yet commit (db/visible-bound.ts), so a reader never passes one; on SQLite txn
 * is 0 and ids commit in order. `types`, when given, keeps only those types (read in the walk's
 * index order and skipped, so a rare type costs a longer scan, never a wrong page).
 */
export async function findEventsAfter(db: Kysely<Database>, query: EventsAfterQuery): Promise<EventRow[]> {
  const rows = await selectEventsAfter(db, query).execute();
  return firstRows(await keepSettledBy(db, rows, (row) => row.txn), query.limit);
}

export interface EventsAfterQuery {
  after: EventPosition;
  types?: readonly string[] | undefined;
  limit: number;
}

/** The statement of `findEventsAfter`, before the settled bound is applied (test/events/events.query-plan.test.ts explains it). */
export function selectEventsAfter(db: Kysely<Database>, query: EventsAfterQuery) {
  const { after } = query;
  let select = withListingSnapshot(
    db,
    db
      .selectFrom('events')
      .selectAll()
      .where(
        isPostgres(db)
          ? sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) > (${after.txn}, ${after.id})`
          : // SQLite seeks a row value on its first column only, then reads every event of txn 0 (all
            // of them: SQLite never sets txn) up to the cursor; equality and range seek both columns.
            sql<boolean>`${sql.ref('txn')} = ${after.txn} and ${sql.ref('id')} > ${after.id}`,
      ),
  );
  if (query.types !== undefined) select = select.where('type', 'in', query.types);
  return select.orderBy('txn').orderBy('id').limit(pageLimit(query.limit));
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
