/**
 * Following the events feed (`GET /v1/events`) for ever: page after page by its
 * `Link: <…>; rel="next"`, with a cursor after every event that resumes exactly there.
 *
 * The service hands out a cursor only after the last event of an answer. So that a consumer may
 * store its position after any event, the client's cursor is the service's cursor of the answer's
 * start plus how many of its events were handled and the id of the last one
 * (`<cursor>~<count>~<id>`); resuming asks from that start again and passes over those events,
 * checking that the last one passed over is the same event. This holds because the feed is exact:
 * from one position it always answers the same events in the same order, and a position whose
 * events were purged answers 410 `cursor_expired` instead. After the last event of an answer the
 * client's cursor is the service's own.
 */
import { AnimalStoreError } from './errors.js';
import type { components, paths } from './openapi.js';
import { nextLinkOf, queryOfNextLink } from './pages.js';

export type Event = components['schemas']['Event'];
/** A type filter of the feed: an exact type (`order.delivered`) or a group (`pet.*`). */
export type EventTypeFilter = NonNullable<NonNullable<paths['/events']['get']['parameters']['query']>['type']>[number];

export interface FollowEventsOptions {
  /** Only these types (exact or a group such as `pet.*`); every type the key may read when omitted. */
  types?: EventTypeFilter[];
  /** Where to resume: a `cursor` this iterator yielded (or one from a feed answer's Link header). Made for the same `types`. */
  cursor?: string;
  /** `latest`: only what happens from now on. Without it and without `cursor`, the oldest event kept comes first. */
  start?: 'latest';
  /** Events per request, 1 to 100; 100 by default. */
  limit?: number;
  /**
   * Long poll: sent as `wait=<seconds>` (0 to 30), the service holds a request that finds nothing until an
   * event comes; 25 s by default (under the 30 s idle timeout of common proxies). `0` polls every `pollIntervalMs` instead.
   */
  wait?: number;
  /** How long to pause when an answer brought nothing new and was not held by a long poll; 1,000 ms by default. */
  pollIntervalMs?: number;
  /** Ends the iteration (quietly, without an error) when it aborts, also during a request or a pause. */
  signal?: AbortSignal;
}

/** One event of the feed and the cursor to store once it is handled: resuming from it gives the events after this one. */
export interface FeedItem {
  event: Event;
  cursor: string;
}

/** The query of one request of the feed, as the service reads it (`wait` is sent as is, even where the types do not know it yet). */
export interface FeedQuery {
  limit: number;
  type?: EventTypeFilter[];
  start?: 'latest';
  cursor?: string;
  wait?: number;
}

export type FetchFeedPage = (query: FeedQuery, signal: AbortSignal | undefined) => Promise<{ items: Event[]; link: string | null }>;

interface FeedPosition {
  /** The service's cursor; undefined for the start of the feed. */
  cursor: string | undefined;
  /** How many events after it were already handled. */
  handled: number;
  /** The id of the last of them, to check it is still the same event. */
  lastId: number | undefined;
}

const RESUME_CURSOR = /^([A-Za-z0-9_-]{1,200})~([1-9]\d{0,2})~([1-9]\d{0,15})$/;

function invalidCursor(message: string): AnimalStoreError {
  return new AnimalStoreError({ code: 'invalid_cursor', status: 0, message });
}

/** A cursor given to `events()`: the service's own, or one this module made after an event inside an answer. */
function parseFeedCursor(cursor: string): FeedPosition {
  if (!cursor.includes('~')) return { cursor, handled: 0, lastId: undefined };
  const match = RESUME_CURSOR.exec(cursor);
  if (!match) throw invalidCursor(`"${cursor}" is not a cursor of the events feed`);
  return { cursor: match[1], handled: Number(match[2]), lastId: Number(match[3]) };
}

/** The cursor after the event at `index` of an answer asked from `from` with `next` as its Link. */
function cursorAfter(from: string | undefined, next: string, index: number, count: number, eventId: number): string {
  if (index === count - 1) return next;
  // The start of the feed has no cursor: its first answer is asked for one event only, so this cannot happen.
  if (from === undefined)
    throw new AnimalStoreError({ code: 'unexpected_response', status: 200, message: 'the first answer of the feed brought more events than asked for' });
  return `${from}~${index + 1}~${eventId}`;
}

function nextCursorOf(link: string | null): string {
  const target = nextLinkOf(link);
  const cursor = target === undefined ? undefined : queryOfNextLink(target, '/events').cursor;
  if (typeof cursor !== 'string' || cursor === '') {
    throw new AnimalStoreError({
      code: 'unexpected_response',
      status: 200,
      message: 'an answer of the events feed came without its Link: <…cursor=…>; rel="next"',
    });
  }
  return cursor;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** How long each request of the feed may be held when it finds nothing, unless the caller says otherwise. */
export const DEFAULT_WAIT_SECONDS = 25;

/** Every event of the feed from the position asked for, for ever: ends only when `signal` aborts or the consumer stops iterating. */
export async function* followEvents(options: FollowEventsOptions, fetchPage: FetchFeedPage): AsyncGenerator<FeedItem, void, undefined> {
  const { signal, types } = options;
  const wait = options.wait ?? DEFAULT_WAIT_SECONDS;
  if (options.start !== undefined && options.cursor !== undefined) throw new TypeError('events(): give either start or cursor, not both');
  const limit = options.limit ?? 100;
  const position = options.cursor === undefined ? { cursor: undefined, handled: 0, lastId: undefined } : parseFeedCursor(options.cursor);
  let from = position.cursor;
  let toPass = position.handled;
  let start = options.start;

  while (!signal?.aborted) {
    // Without a cursor (the oldest event, or `start=latest` with a long poll) there is none to resume inside
    // an answer from: ask for one event, whose cursor is the Link's.
    const query: FeedQuery = { limit: from === undefined ? 1 : limit };
    if (types !== undefined) query.type = types;
    if (from !== undefined) query.cursor = from;
    if (start !== undefined) query.start = start;
    if (wait > 0) query.wait = wait;
    let page: Awaited<ReturnType<FetchFeedPage>>;
    const askedAt = Date.now();
    try {
      page = await fetchPage(query, signal);
    } catch (error) {
      if (signal?.aborted) return;
      throw error;
    }
    const next = nextCursorOf(page.link);
    for (const [index, event] of page.items.entries()) {
      if (toPass > 0) {
        toPass -= 1;
        if (toPass === 0 && event.id !== position.lastId) {
          throw invalidCursor(
            `the cursor resumes after event ${position.lastId}, but the feed has event ${event.id} there: resume with the key and types the cursor was made with`,
          );
        }
        continue;
      }
      if (signal?.aborted) return;
      yield { event, cursor: cursorAfter(from, next, index, page.items.length, event.id) };
    }
    const moved = next !== from;
    from = next;
    start = undefined;
    // Nothing new and the position did not move: the feed is caught up. A long poll that was held has
    // waited already; one answered at once (wait=0, too many waiting, a stopping instance) must not spin.
    const held = wait > 0 && Date.now() - askedAt >= wait * 500;
    if (page.items.length === 0 && !moved && !held) await pause(options.pollIntervalMs ?? 1000, signal);
  }
}
