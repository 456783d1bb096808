/**
 * The events feed's cursors: the generic signed codec (pagination/cursor.ts) with a position of
 * two numbers, bound to the type filter in a canonical form (the exact types it names, so `pet.*`
 * and the three pet types continue each other's walks). The same text can serve a long poll's next
 * answer or a stream's `id:`, since it is only a position.
 *
 * The two numbers are (0, position). Cursors made before positions replaced the (txn, id) keys
 * hold (txn, id): on SQLite txn was always 0 and the position is the id, so they read the same;
 * on PostgreSQL txn is never 0, and `legacyPosition` translates them.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { positionCodecPerSecret } from '../pagination/cursor.js';
import type { EventType } from './events.types.js';

export interface EventCursorFilters {
  [name: string]: readonly string[] | undefined;
  /** The exact types asked for, in the order of EVENT_TYPES; undefined when no filter was sent. */
  type?: readonly EventType[] | undefined;
}

export const eventCursors = positionCodecPerSecret<EventCursorFilters>({ listing: 'events', filterNames: ['type'], parts: 2 });

/** The message of 410 `cursor_expired`: what was lost, and how to go on. */
export const CURSOR_EXPIRED_MESSAGE =
  'events after this cursor were purged (events are kept EVENT_RETENTION_DAYS): some were missed. Start again without a cursor (the oldest event kept) or with start=latest, and catch up from the listings';

/**
 * PostgreSQL: the position a cursor of before, (txn, id) with txn > 0, stands at: that of the last
 * event at or before it in the old order (migration 2026-11-28T00 kept them all), 0 when none,
 * which expires it if anything was purged before it.
 */
export async function legacyPosition(db: Kysely<Database>, txn: number, id: number): Promise<number> {
  // Positions grow with (txn, id): the last row at or before the cursor, one seek in the primary key.
  const row = await db
    .selectFrom('eventsLegacyPositions')
    .select('position')
    .where(sql<boolean>`(${sql.ref('txn')}, ${sql.ref('id')}) <= (${txn}, ${id})`)
    .orderBy('txn', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}
