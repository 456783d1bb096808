/**
 * The store's orders as TypeBox schemas: they validate requests, serialise responses and generate
 * the OpenAPI document.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { OrderStatus } from '../db/database.js';
import { SAMPLE_STORE } from '../docs-examples.js';
import { pageLimitSchema } from '../pagination/page-size.js';
import { MAX_EXACT_INTEGER } from '../pets/pets.schemas.js';
import { ORDER_STATUSES } from './orders.state-machine.js';

const int64 = (description: string, example: number) =>
  Type.Integer({ format: 'int64', minimum: 1, maximum: MAX_EXACT_INTEGER, description, examples: [example] });

const petIdSchema = int64('The animal ordered: an integer from 1 to 2^53−1.', 42);

export const OrderStatusSchema = Type.Unsafe<OrderStatus>({
  $id: 'OrderStatus',
  type: 'string',
  enum: [...ORDER_STATUSES],
  description:
    'Where an order is: `placed` and `approved` are open (the animal is `pending`); `delivered` (the animal is `sold`) and `cancelled` (the animal is `available` again) are final. See the `store` tag for the transitions.',
});

export const NewOrderSchema = Type.Object(
  { petId: petIdSchema },
  {
    $id: 'NewOrder',
    additionalProperties: false,
    description:
      'An order to place. Checked as strictly as `NewPet`: `"42"` is not an integer, `null` is not a value, and any other field (`id`, `status`, a typo) is refused by name.',
    examples: [{ petId: SAMPLE_STORE.petToOrder }],
  },
);
export type NewOrder = Static<typeof NewOrderSchema>;

const timestamp = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-11-26T09:30:00.000Z'] });

export const OrderSchema = Type.Object(
  {
    id: int64('Unique identifier assigned by the service: it grows with each new order and is never reused.', 7),
    petId: {
      ...petIdSchema,
      description: 'The animal ordered. It stays as it was when the animal is removed later (possible once the order is closed).',
    },
    status: Type.Unsafe<OrderStatus>({ $ref: 'OrderStatus' }),
    createdAt: timestamp('When the order was placed: RFC 3339, UTC, millisecond precision.'),
    updatedAt: timestamp('When the order last changed status (its placement at first): RFC 3339, UTC, millisecond precision.'),
  },
  {
    $id: 'Order',
    additionalProperties: false,
    description: 'An order of the store for one animal. **Beta.**',
    examples: [{ id: 7, petId: 42, status: 'placed', createdAt: '2026-11-26T09:30:00.000Z', updatedAt: '2026-11-26T09:30:00.000Z' }],
  },
);
export type Order = Static<typeof OrderSchema>;

export const OrdersSchema = Type.Array(Type.Ref(OrderSchema), {
  $id: 'Orders',
  description: 'A page of orders in ascending id order. When more follow, the response carries a `Link` header with `rel="next"`.',
});

export const ListOrdersQuerySchema = Type.Object(
  {
    limit: pageLimitSchema('orders'),
    status: Type.Optional(Type.Unsafe<OrderStatus>({ $ref: 'OrderStatus', description: 'Return only orders with this status.' })),
    petId: Type.Optional(int64('Return only orders for this animal: an integer from 1 to 2^53−1 written in decimal digits.', SAMPLE_STORE.petToOrder)),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service. Use it with the same `status` and `petId` it was made for; `limit` may change between pages. A cursor that was altered, made by anyone else, made for other filters or for the animals listing answers 400 `invalid_cursor`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListOrdersQuery = Static<typeof ListOrdersQuerySchema>;

/** The path parameters of one order's operations; `example` is the sample order the operation acts on (SAMPLE_STORE). */
export const orderIdParamsSchema = (example: number) =>
  Type.Object({
    orderId: int64('Identifier of the order.', example),
  });
