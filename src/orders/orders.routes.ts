/** HTTP for the store's orders: each route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { SAMPLE_STORE } from '../docs-examples.js';
import { AppError } from '../errors.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header, WRITE_ERROR_RESPONSES } from '../http/responses.js';
import { beta } from '../http/stability.js';
import { PAGE_SIZE } from '../pagination/page-size.js';
import { ACTION_DESCRIPTIONS, ACTION_NOTE, LIST_ORDERS_DESCRIPTION, PLACE_ORDER_DESCRIPTION } from './orders.docs.js';
import { type ListOrdersQuery, ListOrdersQuerySchema, NewOrderSchema, orderIdParamsSchema, OrderSchema, OrdersSchema } from './orders.schemas.js';
import { getOrder, listOrders, placeOrder, transitionOrder } from './orders.service.js';
import { appliesOnlyTo, ORDER_ACTIONS, ORDER_TRANSITIONS, type OrderAction } from './orders.state-machine.js';

export interface OrdersRoutesOptions {
  db: Kysely<Database>;
  now: () => number;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
}

const NO_QUERY = Type.Object({}, { additionalProperties: false });
const ANSWER_HEADERS = { ...HEADERS.requestId, ...HEADERS.rateLimit };
/** The orderId example of each action: a sample order in the state the action needs. */
const SAMPLE_ORDER_OF_ACTION: Record<OrderAction, number> = {
  approve: SAMPLE_STORE.orderToApprove,
  deliver: SAMPLE_STORE.orderToDeliver,
  cancel: SAMPLE_STORE.orderToCancel,
};

export const ordersRoutes: FastifyPluginAsyncTypebox<OrdersRoutesOptions> = async (app, { db, now, cursorSecret }) => {
  app.post(
    '/store/orders',
    {
      config: { scope: 'orders:write', idempotent: true },
      schema: {
        operationId: 'placeOrder',
        tags: ['store'],
        summary: 'Place an order for an animal',
        ...beta(PLACE_ORDER_DESCRIPTION),
        querystring: NO_QUERY,
        body: Type.Ref(NewOrderSchema),
        response: {
          201: {
            ...Type.Ref(OrderSchema),
            description: 'The order was placed; the animal is now `pending`.',
            headers: { Location: header('The path of the new order, `/v1/store/orders/{id}`.'), ...ANSWER_HEADERS },
          },
          400: errorResponse('The body is not valid JSON, or `petId` is missing or invalid.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
          404: errorResponse('No animal has this id.', ['pet_not_found'], HEADERS.rateLimit),
          409: errorResponse('The animal is not `available`; the message names its status.', ['pet_not_available'], HEADERS.rateLimit),
          413: errorResponse('The body is larger than the limit.', ['payload_too_large'], HEADERS.rateLimit),
          415: errorResponse('The body is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...WRITE_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const order = await placeOrder(db, request.body, now);
      return reply.code(201).header('location', `/v1/store/orders/${order.id}`).send(order);
    },
  );

  app.get(
    '/store/orders',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listOrders',
        tags: ['store'],
        summary: 'List orders',
        ...beta(LIST_ORDERS_DESCRIPTION),
        querystring: ListOrdersQuerySchema,
        response: {
          200: {
            ...Type.Ref(OrdersSchema),
            description: 'A page of orders.',
            headers: { Link: header('`<…>; rel="next"` when more orders follow.'), ...ANSWER_HEADERS },
          },
          400: errorResponse('A query parameter is invalid, or the cursor is.', ['validation_failed', 'invalid_cursor'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? PAGE_SIZE.default };
      const page = await listOrders(db, query, await cursorSecret());
      if (page.nextCursor) reply.header('link', `</v1/store/orders?${nextPageQuery(query, page.nextCursor)}>; rel="next"`);
      return page.orders;
    },
  );

  app.get(
    '/store/orders/:orderId',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getOrder',
        tags: ['store'],
        summary: 'Fetch one order',
        ...beta('Answers the order with this id. Orders are never removed, also when their animal is.'),
        params: orderIdParamsSchema(SAMPLE_STORE.orderToRead),
        querystring: NO_QUERY,
        response: {
          200: { ...Type.Ref(OrderSchema), description: 'The order.', headers: ANSWER_HEADERS },
          400: errorResponse('The orderId is not an integer from 1 to 2^53−1, or a query parameter was sent.', ['validation_failed'], HEADERS.rateLimit),
          404: errorResponse('No order has this id.', ['order_not_found'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request) => getOrder(db, request.params.orderId),
  );

  for (const action of ORDER_ACTIONS) {
    const { from } = ORDER_TRANSITIONS[action];
    app.post(
      `/store/orders/:orderId/${action}`,
      {
        config: { scope: 'orders:write', idempotent: true },
        schema: {
          operationId: `${action}Order`,
          tags: ['store'],
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} an order`,
          ...beta(`${ACTION_DESCRIPTIONS[action]}\n\n${ACTION_NOTE}`),
          params: orderIdParamsSchema(SAMPLE_ORDER_OF_ACTION[action]),
          querystring: NO_QUERY,
          response: {
            200: { ...Type.Ref(OrderSchema), description: 'The order as it now is.', headers: ANSWER_HEADERS },
            400: errorResponse('The orderId is invalid, a query parameter or a body was sent.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
            404: errorResponse('No order has this id.', ['order_not_found'], HEADERS.rateLimit),
            409: errorResponse(
              `The order is not ${from.join(' or ')}; the message names its status. Nothing was changed.`,
              ['order_state_conflict'],
              HEADERS.rateLimit,
              {
                order_state_conflict: `order 7 is ${action === 'cancel' ? 'delivered' : 'cancelled'}; ${appliesOnlyTo(action)}`,
              },
            ),
            415: errorResponse('A body was sent that is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
            ...WRITE_ERROR_RESPONSES,
          },
        },
        preValidation: async (request) => refuseActionBody(request.body),
      },
      async (request) => transitionOrder(db, request.params.orderId, action, now),
    );
  }
};

/**
 * An action takes no body. Some clients always send `{}`, which is accepted; anything else is
 * refused rather than ignored, so a client that thinks it passes a field learns that it does not.
 */
function refuseActionBody(body: unknown): void {
  if (body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)) return;
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
  const message =
    fields.length > 0
      ? `this action takes no body; ${fields.map((f) => `body.${f}`).join(', ')} ${fields.length === 1 ? 'is' : 'are'} not accepted`
      : 'this action takes no body (or an empty JSON object)';
  throw new AppError('validation_failed', message, [{ field: 'body', message: 'must be absent or {}' }]);
}

/** The query of the next page: the same filters and limit, and the cursor. */
function nextPageQuery(query: ListOrdersQuery & { limit: number }, cursor: string): URLSearchParams {
  const next = new URLSearchParams({ limit: String(query.limit) });
  if (query.status !== undefined) next.append('status', query.status);
  if (query.petId !== undefined) next.append('petId', String(query.petId));
  next.append('cursor', cursor);
  return next;
}
