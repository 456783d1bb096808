/** HTTP for a webhook endpoint's deliveries: each route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header } from '../http/responses.js';
import { beta } from '../http/stability.js';
import { PAGE_SIZE } from '../pagination/page-size.js';
import { LIST_DELIVERIES_DESCRIPTION, RETRY_DELIVERY_DESCRIPTION, TEST_DELIVERY_DESCRIPTION } from './webhook-deliveries.docs.js';
import {
  DeliveryParamsSchema,
  EndpointParamsSchema,
  type ListDeliveriesQuery,
  ListDeliveriesQuerySchema,
  WebhookDeliverySchema,
} from './webhook-deliveries.schemas.js';
import { listDeliveries, RetryScopeRefusal, retryDelivery, sendTestMessage } from './webhook-deliveries.service.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

export interface WebhookDeliveriesRoutesOptions {
  db: Kysely<Database>;
  now: () => number;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
  /** Told when a delivery is made due, so this process sends it at once. */
  dispatcher: WebhookDispatcher;
}

const NO_QUERY = Type.Object({}, { additionalProperties: false });
const ANSWER_HEADERS = { ...HEADERS.requestId, ...HEADERS.rateLimit };
const NOT_FOUND = errorResponse('No webhook endpoint has this id.', ['webhook_endpoint_not_found'], HEADERS.rateLimit);
const DISABLED = 'The endpoint is disabled (`webhook_endpoint_disabled`): enable it first with `PATCH` `{"status": "enabled"}`.';

export const webhookDeliveriesRoutes: FastifyPluginAsyncTypebox<WebhookDeliveriesRoutesOptions> = async (app, { db, now, cursorSecret, dispatcher }) => {
  app.get(
    '/webhook-endpoints/:endpointId/deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: ['webhooks'],
        summary: "List a webhook endpoint's deliveries",
        ...beta(LIST_DELIVERIES_DESCRIPTION),
        params: EndpointParamsSchema,
        querystring: ListDeliveriesQuerySchema,
        response: {
          200: {
            ...Type.Array(Type.Ref(WebhookDeliverySchema)),
            description: 'A page of deliveries, newest first.',
            headers: { Link: header('`<…>; rel="next"` when more deliveries follow.'), ...ANSWER_HEADERS },
          },
          400: errorResponse('A parameter is invalid, or the cursor is.', ['validation_failed', 'invalid_cursor'], HEADERS.rateLimit),
          404: NOT_FOUND,
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? PAGE_SIZE.default };
      const { endpointId } = request.params;
      const page = await listDeliveries(db, endpointId, query, await cursorSecret(), request.apiKey!);
      if (page.nextCursor) reply.header('link', `</v1/webhook-endpoints/${endpointId}/deliveries?${nextPageQuery(query, page.nextCursor)}>; rel="next"`);
      return page.deliveries;
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/deliveries/:deliveryId/retry',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'retryWebhookDelivery',
        tags: ['webhooks'],
        summary: 'Send a delivery again now',
        ...beta(RETRY_DELIVERY_DESCRIPTION),
        params: DeliveryParamsSchema,
        querystring: NO_QUERY,
        response: {
          202: { ...Type.Ref(WebhookDeliverySchema), description: 'The delivery, pending and due now.', headers: ANSWER_HEADERS },
          400: errorResponse('A parameter is invalid, or a body other than `{}` was sent.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
          404: errorResponse(
            'No webhook endpoint has this id, or it has no delivery with this id of an event type the key may read.',
            ['webhook_endpoint_not_found', 'webhook_delivery_not_found'],
            HEADERS.rateLimit,
          ),
          409: errorResponse(
            `${DISABLED} Or an attempt of this delivery is being sent now (\`webhook_delivery_in_flight\`): retry after it ends.`,
            ['webhook_endpoint_disabled', 'webhook_delivery_in_flight'],
            HEADERS.rateLimit,
          ),
          415: errorResponse('A body was sent that is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
          403: errorResponse(
            "The key lacks `webhooks:write`, or the endpoint no longer receives the delivery's event type (its `allowedTypes`), which the key may read (`pets:read` for a pet event, `orders:read` for an order event).",
            ['insufficient_scope'],
            { ...HEADERS.scopeChallenge, ...HEADERS.rateLimit },
          ),
        },
      },
      preValidation: async (request) => refuseBody(request.body),
    },
    async (request, reply) => {
      const delivery = await retryDelivery(db, request.params.endpointId, request.params.deliveryId, request.apiKey!, now).catch((error: unknown) => {
        // As the scope check does (RFC 6750 §3.1): the challenge names the scope that reads the delivery's type.
        if (error instanceof RetryScopeRefusal)
          reply.header('www-authenticate', `Bearer realm="animal-store", error="insufficient_scope", scope="${error.scope}"`);
        throw error;
      });
      dispatcher.kick();
      return reply.code(202).send(delivery);
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/test',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'testWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Send a test message to a webhook endpoint',
        ...beta(TEST_DELIVERY_DESCRIPTION),
        params: EndpointParamsSchema,
        querystring: NO_QUERY,
        response: {
          202: { ...Type.Ref(WebhookDeliverySchema), description: 'The test delivery, pending and due now.', headers: ANSWER_HEADERS },
          400: errorResponse('A parameter is invalid, or a body other than `{}` was sent.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
          404: NOT_FOUND,
          409: errorResponse(DISABLED, ['webhook_endpoint_disabled'], HEADERS.rateLimit),
          415: errorResponse('A body was sent that is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
      preValidation: async (request) => refuseBody(request.body),
    },
    async (request, reply) => {
      const delivery = await sendTestMessage(db, request.params.endpointId, now);
      dispatcher.kick();
      return reply.code(202).send(delivery);
    },
  );
};

/** These operations take no body; `{}` is accepted (some clients always send one), anything else is refused, not ignored. */
function refuseBody(body: unknown): void {
  const empty = body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty)
    throw new AppError('validation_failed', 'this operation takes no body (or an empty JSON object)', [{ field: 'body', message: 'must be absent or {}' }]);
}

function nextPageQuery(query: ListDeliveriesQuery & { limit: number }, cursor: string): URLSearchParams {
  const next = new URLSearchParams({ limit: String(query.limit) });
  if (query.outcome !== undefined) next.append('outcome', query.outcome);
  next.append('cursor', cursor);
  return next;
}
