/** The webhook deliveries and the `webhook.test` message as TypeBox schemas: requests, responses and the OpenAPI document. */
import { type Static, Type } from '@sinclair/typebox';
import { SAMPLE_STORE } from '../docs-examples.js';
import type { WebhookDeliveryState } from '../db/database.js';
import { pageLimitSchema } from '../pagination/page-size.js';
import { MAX_EXACT_INTEGER } from '../pets/pets.schemas.js';

/** Attempts shown with each delivery, newest first; `attemptCount` tells how many were made. */
export const ATTEMPTS_SHOWN = 10;

const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const satisfies readonly WebhookDeliveryState[];

const int64 = (description: string, example: number) =>
  Type.Integer({ format: 'int64', minimum: 1, maximum: MAX_EXACT_INTEGER, description, examples: [example] });
const timestamp = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-11-27T09:30:00.000Z'] });
const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);

export const WebhookTestEventSchema = Type.Object(
  {
    type: Type.Literal('webhook.test'),
    occurredAt: timestamp('When the test was asked for: RFC 3339, UTC, millisecond precision.'),
    data: Type.Object(
      {
        endpointId: int64('The endpoint the test was sent to.', 3),
        message: Type.String({ description: 'A fixed text saying what this is.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'WebhookTestEvent',
    additionalProperties: false,
    description:
      'The body of a test message (`POST /v1/webhook-endpoints/{endpointId}/test`): signed and sent like an event, with a `webhook-id` of its own, but no event of the feed.',
    examples: [
      {
        type: 'webhook.test',
        occurredAt: '2026-11-27T09:30:00.000Z',
        data: { endpointId: 3, message: 'A test message from animal-store: this endpoint receives webhooks.' },
      },
    ],
  },
);
export type WebhookTestEvent = Static<typeof WebhookTestEventSchema>;

const AttemptSchema = Type.Object(
  {
    attemptedAt: timestamp('When the attempt started.'),
    durationMs: Type.Integer({ minimum: 0, description: "How long the attempt took, until the answer's status line or the failure." }),
    outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')], { description: '`succeeded`: the receiver answered 2xx.' }),
    statusCode: nullable(Type.Integer({ minimum: 100, maximum: 999, description: "The receiver's status; null when it did not answer." })),
    error: nullable(
      Type.String({
        description: 'Why the attempt failed (`answered 500`, `timeout: no answer within 15 s`, `refused: not a public address`…); null on success.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const WebhookDeliverySchema = Type.Object(
  {
    id: int64('The delivery: one message to one endpoint.', 12),
    endpointId: int64('The endpoint it goes to.', 3),
    messageId: Type.String({
      description: 'The `webhook-id` header it is sent with, the same on every attempt: `evt_<event id>` for an event, `msg_test_…` for a test.',
      examples: ['evt_1234'],
    }),
    eventId: nullable(int64('The event delivered; null for a test message.', 1234)),
    eventType: Type.String({ description: "The event's type, or `webhook.test`.", examples: ['pet.created'] }),
    state: Type.Union(
      DELIVERY_STATES.map((state) => Type.Literal(state)),
      {
        description:
          '`pending`: an attempt is due (at `nextAttemptAt`); `succeeded`: a receiver answered 2xx; `failed`: every attempt of the schedule failed, the receiver answered 410, or its endpoint was disabled.',
      },
    ),
    attemptCount: Type.Integer({ minimum: 0, description: 'Attempts made so far.' }),
    nextAttemptAt: nullable(timestamp('When pending: when the next attempt is due.')),
    createdAt: timestamp('When the delivery was made (the event fanned out, or the test asked for).'),
    lastAttemptAt: nullable(timestamp('When the last attempt started; null before the first.')),
    attempts: Type.Array(AttemptSchema, { maxItems: ATTEMPTS_SHOWN, description: `The last ${ATTEMPTS_SHOWN} attempts, newest first.` }),
  },
  {
    $id: 'WebhookDelivery',
    additionalProperties: false,
    description: 'One message (an event, or a test) to one webhook endpoint, with its attempts. **Beta.**',
  },
);
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const ListDeliveriesQuerySchema = Type.Object(
  {
    limit: pageLimitSchema('deliveries'),
    outcome: Type.Optional(
      Type.Union(
        DELIVERY_STATES.map((state) => Type.Literal(state)),
        { description: 'Return only the deliveries in this state: `pending`, `succeeded` or `failed`.' },
      ),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service, bound to the endpoint and the `outcome` filter.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuerySchema>;

// The examples name the sample store's endpoint and delivery (docs-examples.ts), so /docs' "Try it out" works as shown.
export const EndpointParamsSchema = Type.Object({ endpointId: int64('Identifier of the webhook endpoint.', SAMPLE_STORE.webhookEndpointToRead) });
export const DeliveryParamsSchema = Type.Object({
  endpointId: int64('Identifier of the webhook endpoint.', SAMPLE_STORE.webhookEndpointToRead),
  deliveryId: int64('Identifier of the delivery.', SAMPLE_STORE.webhookDeliveryToRetry),
});
