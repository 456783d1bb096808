/**
 * Retention of the events feed: purging events older than EVENT_RETENTION_DAYS in short batches
 * (run off the request path by events.purge-job.ts), and the positions below which the feed has
 * been purged, which the feed compares a cursor with (410 `cursor_expired`).
 *
 * The rule. A purge deletes a prefix of the feed's order (positions), never more: the events up to
 * the first one not yet older than the cutoff (`occurredAt` is when the event's statement ran; on
 * PostgreSQL an event is numbered at commit, so an older time may follow a newer one: it holds
 * back the purge of the events after it until it is old enough too, a transaction's length at
 * most). Events still without a position are never purged: they come after every numbered one.
 * Each batch, one short transaction, deletes at most `batchSize` events and moves
 * `events_retention` to the position of the last one, and, for each type it deleted, the newest
 * position of that type. So at every moment the purged events are exactly those at or below that
 * position: a cursor below it has lost events, one at or above it none, however old it is; and a
 * cursor that reads some types only has lost events only if one of those types was purged after it.
 *
 * Several instances purge at once safely: a batch first locks the row of `events_retention` (on
 * SQLite the write transaction locks the file), so batches take turns and each starts from where
 * the one before it ended.
 */
import type { Kysely } from 'kysely';
import { forUpdate, writeTransaction } from '../db/dialect.js';
import type { Database } from '../db/database.js';
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

/** What has been purged: the newest position, and the newest position of each type (absent: none of that type). */
export interface PurgedPositions {
  position: EventPosition;
  byType: Readonly<Record<string, EventPosition>>;
}

export async function readPurged(db: Kysely<Database>): Promise<PurgedPositions> {
  const row = await db.selectFrom('eventsRetention').select(['purgedPosition', 'purgedTypes']).where('singleton', '=', 1).executeTakeFirstOrThrow();
  return { position: row.purgedPosition, byType: parseTypes(row.purgedTypes) };
}

/** The newest purged position a reader of `types` (every type when undefined) has lost if its cursor is below it. */
export function purgedPositionFor(purged: PurgedPositions, types: readonly string[] | undefined): EventPosition {
  if (types === undefined) return purged.position;
  return Math.max(0, ...types.map((type) => purged.byType[type] ?? 0));
}

function parseTypes(text: string): Record<string, EventPosition> {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null ? (value as Record<string, EventPosition>) : {};
}

/**
 * Deletes the events that occurred before `cutoff` (epoch ms, the database's clock), a prefix of
 * the feed at a time, in batches of their own transaction; returns how many it deleted.
 */
export async function purgeEventsBefore(db: Kysely<Database>, cutoff: number, options: PurgeOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE;
  let purged = 0;
  for (let batch = 0; batch < (options.maxBatches ?? PURGE_MAX_BATCHES) && !options.stopping?.(); batch++) {
    const deleted = await purgeBatch(db, { cutoff, batchSize });
    purged += deleted;
    if (deleted < batchSize) break;
  }
  return purged;
}

/** One batch: locks the purged positions, deletes the next prefix of old events after them, moves them. */
async function purgeBatch(db: Kysely<Database>, batch: { cutoff: number; batchSize: number }): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const from = await forUpdate(
      trx,
      trx.selectFrom('eventsRetention').select(['purgedPosition', 'purgedTypes']).where('singleton', '=', 1),
    ).executeTakeFirstOrThrow();
    const next = await trx
      .selectFrom('events')
      .select(['position', 'type', 'occurredAt'])
      .where('position', '>', from.purgedPosition)
      .orderBy('position')
      .limit(batch.batchSize)
      .execute();
    const byType = parseTypes(from.purgedTypes);
    let through: EventPosition | undefined;
    for (const event of next) {
      if (event.occurredAt >= batch.cutoff) break;
      through = event.position;
      byType[event.type] = event.position;
    }
    if (through === undefined) return 0;
    const deleted = await trx.deleteFrom('events').where('position', '>', from.purgedPosition).where('position', '<=', through).executeTakeFirst();
    await trx
      .updateTable('eventsRetention')
      .set({ purgedPosition: through, purgedTypes: JSON.stringify(byType) })
      .where('singleton', '=', 1)
      .execute();
    return Number(deleted.numDeletedRows);
  });
}
