/**
 * The events feed's cursors: the generic signed codec (pagination/cursor.ts) with a position of
 * two numbers, the last event's (txn, id), bound to the type filter in a canonical form (the
 * exact types it names, so `pet.*` and the three pet types continue each other's walks). The same
 * text can serve a long poll's next answer or a stream's `id:`, since it is only a position.
 */
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
