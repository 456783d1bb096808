/** HTTP for the events feed: the route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header } from '../http/responses.js';
import { beta } from '../http/stability.js';
import { PAGE_SIZE } from '../pagination/page-size.js';
import { EVENT_STREAM_DESCRIPTION, LAST_EVENT_ID_DESCRIPTION, LIST_EVENTS_DESCRIPTION } from './events.docs.js';
import { EventsSchema, type ListEventsQuery, ListEventsQuerySchema } from './events.schemas.js';
import { createEventsLive, type EventsLiveOptions, walkOfRequest } from './events.live-http.js';
import { EVENT_STREAM_MEDIA_TYPE, wantsEventStream } from './events.sse.js';
import { EVENT_TYPES, expandTypeFilter, scopeToRead } from './events.types.js';

export interface EventsRoutesOptions {
  db: Kysely<Database>;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
  /** The long polls' and streams' settings. */
  live: EventsLiveOptions;
}

const ANSWER_HEADERS = { ...HEADERS.requestId, ...HEADERS.rateLimit };

export const eventsRoutes: FastifyPluginAsyncTypebox<EventsRoutesOptions> = async (app, { db, cursorSecret, live: liveOptions }) => {
  const live = createEventsLive(app, db, liveOptions);
  app.get(
    '/events',
    {
      // A key needs one of them; which events it gets follows the scopes it has (events.service).
      config: { scope: ['pets:read', 'orders:read'] },
      schema: {
        operationId: 'listEvents',
        tags: ['events'],
        summary: "Read the store's changes",
        ...beta(LIST_EVENTS_DESCRIPTION),
        querystring: ListEventsQuerySchema,
        headers: Type.Object({ 'Last-Event-ID': Type.Optional(Type.String({ description: LAST_EVENT_ID_DESCRIPTION })) }),
        response: {
          200: {
            description: `The events after the position asked for, oldest first (none at the end of the feed, or with \`start=latest\`); with \`Accept: ${EVENT_STREAM_MEDIA_TYPE}\`, the live stream.`,
            headers: {
              Link: header(
                'Always on `application/json` answers: `<…?cursor=…>; rel="next"`, the position after the last event returned (or, when none was, the same position; past the events of other types read, with a filter), with the same `type` filter and `limit`.',
              ),
              ...ANSWER_HEADERS,
            },
            content: {
              'application/json': { schema: Type.Ref(EventsSchema) },
              [EVENT_STREAM_MEDIA_TYPE]: { schema: Type.String({ description: EVENT_STREAM_DESCRIPTION }) },
            },
          },
          400: errorResponse(
            'A query parameter is invalid, `start` and `cursor` were both sent, or the cursor is invalid.',
            ['validation_failed', 'invalid_cursor'],
            HEADERS.rateLimit,
          ),
          410: errorResponse(
            'Events after the cursor were purged (kept `EVENT_RETENTION_DAYS`): the reader missed some. Start again without a cursor or with `start=latest`, and catch up from the listings. An old cursor that missed nothing stays valid.',
            ['cursor_expired'],
            HEADERS.rateLimit,
          ),
          ...COMMON_ERROR_RESPONSES,
          429: errorResponse(
            'Too many requests this minute with this key, or too many failed key verifications from this address; or, for a stream, the key already holds `EVENT_STREAMS_PER_KEY` streams on this instance.',
            ['rate_limited', 'too_many_streams'],
            { ...HEADERS.retryAfter, ...HEADERS.rateLimit },
          ),
        },
      },
    },
    async (request, reply) => {
      const { wait = 0, ...asked } = request.query;
      const query = { ...asked, limit: asked.limit ?? PAGE_SIZE.default };
      try {
        if (wantsEventStream(request.headers.accept)) {
          const walk = await walkOfRequest(db, request, { ...query, limit: PAGE_SIZE.max }, await cursorSecret(), request.headers['last-event-id']);
          return await live.stream(request, reply, walk);
        }
        const walk = await walkOfRequest(db, request, query, await cursorSecret(), undefined);
        const page = await live.poll(request, reply, walk, wait);
        reply.header('link', `</v1/events?${nextQuery(query, walk.cursorOf(page.next))}>; rel="next"`);
        return page.events;
      } catch (error) {
        // As the scope check does for a route's own scope (RFC 6750 §3.1): the challenge names what is lacking.
        if (error instanceof AppError && error.code === 'insufficient_scope') {
          const needed = new Set((query.type === undefined ? EVENT_TYPES : expandTypeFilter(query.type)).map(scopeToRead));
          reply.header('www-authenticate', `Bearer realm="animal-store", error="insufficient_scope", scope="${[...needed].join(' ')}"`);
        }
        throw error;
      }
    },
  );
};

/** The query of the next answer: the same filter and limit, and the cursor. */
function nextQuery(query: ListEventsQuery & { limit: number }, cursor: string): URLSearchParams {
  const next = new URLSearchParams({ limit: String(query.limit) });
  for (const type of query.type ?? []) next.append('type', type);
  next.append('cursor', cursor);
  return next;
}
