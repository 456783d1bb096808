/** HTTP for the events feed: the route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header } from '../http/responses.js';
import { beta } from '../http/stability.js';
import { PAGE_SIZE } from '../pagination/page-size.js';
import { LIST_EVENTS_DESCRIPTION } from './events.docs.js';
import { EventsSchema, type ListEventsQuery, ListEventsQuerySchema } from './events.schemas.js';
import { listEvents } from './events.service.js';
import { EVENT_TYPES, expandTypeFilter, scopeToRead } from './events.types.js';

export interface EventsRoutesOptions {
  db: Kysely<Database>;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
}

const ANSWER_HEADERS = { ...HEADERS.requestId, ...HEADERS.rateLimit };

export const eventsRoutes: FastifyPluginAsyncTypebox<EventsRoutesOptions> = async (app, { db, cursorSecret }) => {
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
        response: {
          200: {
            ...Type.Ref(EventsSchema),
            description: 'The events after the position asked for, oldest first (none at the end of the feed, or with `start=latest`).',
            headers: {
              Link: header('Always: `<…?cursor=…>; rel="next"`, the position after the last event returned (or, when none was, the same position; past the events of other types read, with a filter), with the same `type` filter and `limit`.'),
              ...ANSWER_HEADERS,
            },
          },
          400: errorResponse('A query parameter is invalid, `start` and `cursor` were both sent, or the cursor is invalid.', ['validation_failed', 'invalid_cursor'], HEADERS.rateLimit),
          410: errorResponse(
            'Events after the cursor were purged (kept `EVENT_RETENTION_DAYS`): the reader missed some. Start again without a cursor or with `start=latest`, and catch up from the listings. An old cursor that missed nothing stays valid.',
            ['cursor_expired'],
            HEADERS.rateLimit,
          ),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? PAGE_SIZE.default };
      try {
        const page = await listEvents(db, query, request.apiKey!.scopes, await cursorSecret());
        reply.header('link', `</v1/events?${nextQuery(query, page.nextCursor)}>; rel="next"`);
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
