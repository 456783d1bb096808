/**
 * Retention of the events feed: purging events older than EVENT_RETENTION_DAYS in short batches
 * (run off the request path by events.purge-job.ts), and the position below which the feed has
 * been purged, which the feed compares a cursor with (410 `cursor_expired`).
 *
 * The rule. A purge deletes a prefix of the feed's order (txn, id), never more: in that order, the
 * events up to the first one not yet older than the cutoff (`occurredAt` is when the event's
 * statement ran, so an event of a transaction that began earlier may carry a later time: it holds
 * back the purge of the events after it until it is old enough too, a transaction's length at
 * most). On PostgreSQL the purge also stops before the first position a transaction still running
 * could commit (db/visible-bound.ts), so no event can ever commit behind it. Each batch, one short
 * transaction, deletes at most `batchSize` events and moves `events_retention` to the position of
 * the last one. So at every moment the purged events are exactly those at or below that position:
 * a cursor below it has lost the events after it (the one at the position, at least), a cursor at
 * or above it has lost none, however old it is.
 *
 * Several instances purge at once safely: a batch first locks the row of `events_retention` (on
 * SQLite the write transaction locks the file), so batches take turns and each starts from where
 * the one before it ended.
 */
import { type Kysely, sql } from 'kysely';
import { forUpdate, writeTransaction } from '../db/dialect.js';
import type { Database } from '../db/database.js';
import { currentSettledBound } from '../db/visible-bound.js';
import type { EventPosition } from './events.repository.js';

const PURGE_BATCH_SIZE = 500;
/** Most batches one purge run deletes: a backlog is worked off over several runs, never in one long one. */
const PURGE_MAX_BATCHES = 100;

export interface PurgeOptions {
  batchSize?: number;
  maxBatches?: number;
  /** Asked before each batch: a purge that should stop (its process is closing) ends between batches. */
  stopping?: () => boolean;
}

/** The position of the newest event purged: (0, 0) before any purge. */
export async function readPurgedPosition(db: Kysely<Database>): Promise<EventPosition> {
  const row = await db.selectFrom('eventsRetention').select(['purgedTxn', 'purgedId']).where('singleton', '=', 1).executeTakeFirstOrThrow();
  return { txn: row.purgedTxn, id: row.purgedId };
}

/** Whether position `a` comes before `b` in the feed's order. */
export function isBefore(a: EventPosition, b: EventPosition): boolean {
  return a.txn < b.txn || (a.txn === b.txn && a.id < b.id);
}

/**
 * Deletes the events that occurred before `cutoff` (epoch ms, the database's clock), a prefix of
 * the feed at a time, in batches of their own transaction; returns how many it deleted.
 */
export async function purgeEventsBefore(db: Kysely<Database>, cutoff: number, options: PurgeOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE;
  // Read once: every position below it stays settled for good, whatever commits later.
  const bound = await currentSettledBound(db);
  let purged = 0;
  for (let batch = 0; batch < (options.maxBatches ?? PURGE_MAX_BATCHES) && !options.stopping?.(); batch++) {
    const deleted = await purgeBatch(db, { cutoff, bound, batchSize });
    purged += deleted;
    if (deleted < batchSize) break;
  }
  return purged;
}

/** One batch: locks the purged position, deletes the next prefix of old events after it, moves it. */
async function purgeBatch(db: Kysely<Database>, batch: { cutoff: number; bound: bigint | undefined; batchSize: number }): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const from = await forUpdate(trx, trx.selectFrom('eventsRetention').select(['purgedTxn as txn', 'purgedId as id']).where('singleton', '=', 1)).executeTakeFirstOrThrow();
    const next = await trx
      .selectFrom('events')
      .select(['txn', 'id', 'occurredAt'])
      .where(sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) > (${from.txn}, ${from.id})`)
      .orderBy('txn')
      .orderBy('id')
      .limit(batch.batchSize)
      .execute();
    let through: EventPosition | undefined;
    for (const event of next) {
      if (event.occurredAt >= batch.cutoff || (batch.bound !== undefined && BigInt(event.txn) >= batch.bound)) break;
      through = { txn: event.txn, id: event.id };
    }
    if (through === undefined) return 0;
    const deleted = await trx
      .deleteFrom('events')
      .where(sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) > (${from.txn}, ${from.id})`)
      .where(sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) <= (${through.txn}, ${through.id})`)
      .executeTakeFirst();
    await trx.updateTable('eventsRetention').set({ purgedTxn: through.txn, purgedId: through.id }).where('singleton', '=', 1).execute();
    return Number(deleted.numDeletedRows);
  });
}
