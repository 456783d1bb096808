/**
 * The events feed's use cases. No HTTP here. Which events a key may read follows its scopes
 * (events.types.ts `scopeToRead`); the feed is a walk of positions (events.repository.ts), and
 * every answer names the position to continue from, also when it holds no event. A cursor whose
 * next events were purged answers 410 `cursor_expired` (events.retention.ts says how that is known).
 */
import type { Kysely } from 'kysely';
import type { Database, EventRow } from '../db/database.js';
import { AppError } from '../errors.js';
import type { Scope } from '../keys/scopes.js';
import { toOrder } from '../orders/orders.service.js';
import { CURSOR_EXPIRED_MESSAGE, eventCursors } from './events.cursor.js';
import { type EventPosition, findEventsAfter, latestEventPosition } from './events.repository.js';
import { isBefore, readPurgedPosition } from './events.retention.js';
import type { Event, ListEventsQuery } from './events.schemas.js';
import { EVENT_TYPES, type EventType, expandTypeFilter, scopeToRead } from './events.types.js';

export interface EventPage {
  events: Event[];
  /** Where the next answer starts: after the last event of this one, or where this one started. */
  nextCursor: string;
}

const START: EventPosition = { txn: 0, id: 0 };

/** One answer of the feed, for a key with these scopes. */
export async function listEvents(db: Kysely<Database>, query: ListEventsQuery & { limit: number }, scopes: readonly Scope[], cursorSecret: string): Promise<EventPage> {
  const asked = query.type === undefined ? undefined : expandTypeFilter(query.type);
  const readable = readableTypes(asked, scopes);
  const filters = { type: asked };
  const cursors = eventCursors(cursorSecret);
  if (query.start !== undefined && query.cursor !== undefined) {
    throw new AppError('validation_failed', 'send either start or cursor, not both: start=latest begins a new walk, a cursor continues one', [
      { field: 'query.start', message: 'must be absent when cursor is given' },
    ]);
  }
  if (query.start === 'latest') {
    // On SQLite the newest event is the largest id kept: once every event is purged, the purged position is later.
    const latest = later(await latestEventPosition(db), await readPurgedPosition(db));
    return { events: [], nextCursor: cursors.encode([latest.txn, latest.id], filters) };
  }
  const after = query.cursor === undefined ? START : positionOf(cursors.decode(query.cursor, filters));
  const { rows, readTo } = await findEventsAfter(db, { after, types: readable.length === EVENT_TYPES.length ? undefined : readable, limit: query.limit });
  // Read after the page, never before: a purge that removed events after `after` before the page
  // was read has moved it past `after` by then (a purge and its move commit together), so a page
  // with a gap is never answered; one that ran after the page was read may make this a 410 too.
  const purged = await readPurgedPosition(db);
  if (query.cursor !== undefined && isBefore(after, purged)) {
    throw new AppError('cursor_expired', CURSOR_EXPIRED_MESSAGE);
  }
  const last = rows.at(-1);
  // A filtered answer that read its fill of other types moves past them (readTo), found or not;
  // without a cursor the walk starts at the oldest event kept: every position up to the purged one is gone.
  const next = readTo ?? (last === undefined ? later(after, purged) : { txn: last.txn, id: last.id });
  return { events: rows.map(toEvent), nextCursor: cursors.encode([next.txn, next.id], filters) };
}

function later(a: EventPosition, b: EventPosition): EventPosition {
  return isBefore(a, b) ? b : a;
}

/**
 * The types asked for (every type when none) that the scopes may read; 403 when that leaves none,
 * since the key asked only for what it may not see.
 */
function readableTypes(asked: readonly EventType[] | undefined, scopes: readonly Scope[]): EventType[] {
  const wanted = asked ?? EVENT_TYPES;
  const readable = wanted.filter((type) => scopes.includes(scopeToRead(type)));
  if (readable.length === 0) {
    const needed = [...new Set(wanted.map(scopeToRead))];
    throw new AppError('insufficient_scope', `this key may read none of the event types asked for: they need the scope ${needed.join(' or ')}; its scopes: ${scopes.join(', ')}`);
  }
  return readable;
}

function positionOf([txn, id]: number[]): EventPosition {
  return { txn: txn!, id: id! };
}

/** A stored event as the API shows it (the feed, and the body of a webhook): the row's columns turned into the Pet or Order they were. */
export function toEvent(row: EventRow): Event {
  const type = row.type as EventType;
  const data = JSON.parse(row.data) as Event['data'];
  const event: Event = {
    id: row.id,
    type,
    occurredAt: new Date(row.occurredAt).toISOString(),
    data: scopeToRead(type) === 'orders:read' ? toOrder(data as unknown as Parameters<typeof toOrder>[0]) : data,
  };
  if (row.changed !== null) event.changed = JSON.parse(row.changed) as Event['changed'];
  return event;
}
