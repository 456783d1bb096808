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
import { CURSOR_EXPIRED_MESSAGE, eventCursors, legacyPosition } from './events.cursor.js';
import { type EventPosition, findEventsAfter, newestEventPosition } from './events.repository.js';
import { purgedPositionFor, readPurged } from './events.retention.js';
import type { Event, ListEventsQuery } from './events.schemas.js';
import { EVENT_TYPES, type EventType, expandTypeFilter, scopeToRead } from './events.types.js';

const START: EventPosition = 0;

/**
 * A reader's walk of the feed, from the query of its first answer: where it stands, what it reads.
 * A long poll or a stream (events.live.ts) reads page after page of one walk.
 */
export interface EventWalk {
  after: EventPosition;
  /** The types read; undefined for every type. */
  types: readonly EventType[] | undefined;
  limit: number;
  /** Whether the position came from a reader (a cursor): then a purge past it answers 410. */
  resumed: boolean;
  /** Whether the walk began with start=latest: its first answer is empty, whatever follows the position. */
  startsLatest: boolean;
  cursorOf(position: EventPosition): string;
}

/** The first answer of a walk, at once: none with start=latest, else its first page. */
export async function readFirstPage(db: Kysely<Database>, walk: EventWalk): Promise<Pick<WalkPage, 'events' | 'next'>> {
  return walk.startsLatest ? { events: [], next: walk.after } : readWalkPage(db, walk);
}

/** The walk a query asks for: 400 for a bad cursor or start with cursor, 403 for types the key may not read. */
export async function startWalk(
  db: Kysely<Database>,
  query: ListEventsQuery & { limit: number },
  scopes: readonly Scope[],
  cursorSecret: string,
): Promise<EventWalk> {
  const asked = query.type === undefined ? undefined : expandTypeFilter(query.type);
  const readable = readableTypes(asked, scopes);
  const filters = { type: asked };
  const cursors = eventCursors(cursorSecret);
  if (query.start !== undefined && query.cursor !== undefined) {
    throw new AppError('validation_failed', 'send either start or cursor, not both: start=latest begins a new walk, a cursor continues one', [
      { field: 'query.start', message: 'must be absent when cursor is given' },
    ]);
  }
  const walk = {
    types: readable.length === EVENT_TYPES.length ? undefined : readable,
    limit: query.limit,
    cursorOf: (position: EventPosition) => cursors.encode([0, position], filters),
  };
  if (query.start === 'latest') {
    // Once every event is purged, the purged position is the newest one.
    const latest = Math.max(await newestEventPosition(db), (await readPurged(db)).position);
    return { ...walk, after: latest, resumed: false, startsLatest: true };
  }
  const after = query.cursor === undefined ? START : await positionOf(db, cursors.decode(query.cursor, filters));
  return { ...walk, after, resumed: query.cursor !== undefined, startsLatest: false };
}

export interface WalkPage {
  events: Event[];
  /** Each event's position in the feed, in the order of `events`. */
  positions: EventPosition[];
  next: EventPosition;
  /** Whether more may follow at once: the page is full, or a filtered read stopped at its fill of other types. */
  more: boolean;
}

/** The next page of a walk, and the position after it; 410 when events after a reader's position were purged. */
export async function readWalkPage(db: Kysely<Database>, walk: EventWalk): Promise<WalkPage> {
  const { after } = walk;
  const { rows, readTo } = await findEventsAfter(db, { after, types: walk.types, limit: walk.limit });
  // Read after the page, never before: a purge that removed events after `after` before the page
  // was read has moved it past `after` by then (a purge and its move commit together), so a page
  // with a gap is never answered; one that ran after the page was read may make this a 410 too.
  const purged = await readPurged(db);
  if (walk.resumed && after < purgedPositionFor(purged, walk.types)) {
    throw new AppError('cursor_expired', CURSOR_EXPIRED_MESSAGE);
  }
  const last = rows.at(-1);
  // A filtered answer that read its fill of other types moves past them (readTo), found or not;
  // without a cursor the walk starts at the oldest event kept: every position up to the purged one is gone.
  const next = readTo ?? (last === undefined ? Math.max(after, purged.position) : last.position);
  const positions = rows.map((row) => row.position);
  return { events: rows.map(toEvent), positions, next, more: readTo !== undefined || rows.length === walk.limit };
}

/**
 * The types asked for (every type when none) that the scopes may read; 403 when that leaves none,
 * since the key asked only for what it may not see. The webhook endpoints take the same rule.
 */
export function readableTypes(asked: readonly EventType[] | undefined, scopes: readonly Scope[]): EventType[] {
  const wanted = asked ?? EVENT_TYPES;
  const readable = wanted.filter((type) => scopes.includes(scopeToRead(type)));
  if (readable.length === 0) {
    const needed = [...new Set(wanted.map(scopeToRead))];
    throw new AppError(
      'insufficient_scope',
      `this key may read none of the event types asked for: they need the scope ${needed.join(' or ')}; its scopes: ${scopes.join(', ')}`,
    );
  }
  return readable;
}

/** A cursor's position: (0, position), or a cursor of before (txn, id) translated (events.cursor.ts). */
async function positionOf(db: Kysely<Database>, [txn, id]: number[]): Promise<EventPosition> {
  return txn === 0 ? id! : legacyPosition(db, txn!, id!);
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
