/**
 * The store's webhook endpoints as TypeBox schemas: they validate requests, serialise responses
 * and generate the OpenAPI document.
 */
import { type Static, Type } from '@sinclair/typebox';
import { DISPLAY_TEXT_PATTERN, DISPLAY_TEXT_RULE } from '../display-text.js';
import { EVENT_TYPE_GROUPS, EVENT_TYPES, type EventType, type EventTypeFilter } from '../events/events.types.js';
import { pageLimitSchema } from '../pagination/page-size.js';
import { MAX_EXACT_INTEGER } from '../pets/pets.schemas.js';
import { WEBHOOK_SECRET_BYTES } from './webhook-secret.js';
import { WEBHOOK_URL_MAX_LENGTH } from './webhook-url-policy.js';

export const DESCRIPTION_MAX_LENGTH = 500;
export type WebhookEndpointStatus = 'enabled' | 'disabled';
const STATUSES: readonly WebhookEndpointStatus[] = ['enabled', 'disabled'];
const EVENT_FILTER_VALUES: readonly EventTypeFilter[] = [...EVENT_TYPES, ...EVENT_TYPE_GROUPS];
const SAMPLE_URL = 'https://example.com/webhooks';
const SAMPLE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/CbPu7VkBRg=';

const int64 = (description: string, example: number) =>
  Type.Integer({ format: 'int64', minimum: 1, maximum: MAX_EXACT_INTEGER, description, examples: [example] });
const timestamp = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-11-27T09:30:00.000Z'] });

const urlSchema = Type.String({
  minLength: 1,
  maxLength: WEBHOOK_URL_MAX_LENGTH,
  description: `Where events are sent (POST): an absolute \`https\` URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters, without user name, password or fragment, whose host is public (see "Which URLs are accepted" in the tag's description). Stored and answered as the URL standard normalises it (\`HTTPS://Example.COM\` becomes \`https://example.com/\`).`,
  examples: [SAMPLE_URL],
});

const eventsSchema = Type.Array(Type.Unsafe<EventTypeFilter>({ type: 'string', enum: [...EVENT_FILTER_VALUES] }), {
  minItems: 1,
  maxItems: EVENT_FILTER_VALUES.length,
  description:
    'The event types to receive: each an exact type (`order.delivered`) or a group (`pet.*`, `order.*`); one given twice counts once (it is kept once). The endpoint receives those of them that the API key which set them could read (`allowedTypes`); naming only types that key may not read answers 403 `insufficient_scope`.',
  examples: [['pet.*', 'order.delivered']],
});

const descriptionSchema = Type.String({
  minLength: 1,
  maxLength: DESCRIPTION_MAX_LENGTH,
  pattern: DISPLAY_TEXT_PATTERN,
  description: `What the endpoint is for, for the people managing it: 1 to ${DESCRIPTION_MAX_LENGTH} characters with ${DISPLAY_TEXT_RULE}.`,
  examples: ['Shop front: drop sold animals'],
});

const statusSchema = Type.Unsafe<WebhookEndpointStatus>({
  type: 'string',
  enum: [...STATUSES],
  description:
    '`enabled`: events are delivered. `disabled`: none are (by a request, or by the service when the receiver answered 410 or failed for days; `disabledReason` then says why).',
});

const endpointProperties = {
  id: int64('Unique identifier assigned by the service, never reused.', 1),
  url: urlSchema,
  description: Type.Optional(descriptionSchema),
  events: eventsSchema,
  allowedTypes: Type.Array(Type.Unsafe<EventType>({ $ref: 'EventType' }), {
    description:
      'The exact event types this endpoint receives: those `events` names that the API key which last set `url` or `events` could read (`pets:read` for `pet.*`, `orders:read` for `order.*`). Kept whatever becomes of that key.',
  }),
  status: statusSchema,
  disabledReason: Type.Optional(Type.String({ description: 'Why the service disabled the endpoint; absent when enabled, or disabled by a request.' })),
  previousSecretExpiresAt: Type.Optional(
    timestamp('After a rotation: until when the secret it replaced still signs deliveries beside the new one (24 hours). Absent when only one secret signs.'),
  ),
  createdAt: timestamp('When the endpoint was added: RFC 3339, UTC, millisecond precision.'),
  updatedAt: timestamp('When it last changed (its secret included): RFC 3339, UTC, millisecond precision.'),
};

const SAMPLE_ENDPOINT = {
  id: 1,
  url: SAMPLE_URL,
  description: 'Shop front: drop sold animals',
  events: ['pet.*', 'order.delivered'],
  allowedTypes: ['pet.created', 'pet.updated', 'pet.deleted', 'order.delivered'],
  status: 'enabled',
  createdAt: '2026-11-27T09:30:00.000Z',
  updatedAt: '2026-11-27T09:30:00.000Z',
};

export const WebhookEndpointSchema = Type.Object(endpointProperties, {
  $id: 'WebhookEndpoint',
  additionalProperties: false,
  description:
    'A URL the store sends its events to. Its signing secret is shown only by `createWebhookEndpoint`, `rotateWebhookEndpointSecret`, and an `updateWebhookEndpoint` that widens `allowedTypes` (which replaces it). **Beta.**',
  examples: [SAMPLE_ENDPOINT],
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

const secretSchema = (when: string) =>
  Type.String({
    pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
    description: `The signing secret (Standard Webhooks): \`whsec_\` and the base64 of ${WEBHOOK_SECRET_BYTES} random bytes; a receiver keys HMAC-SHA256 with the decoded bytes. ${when}**Shown only in this answer**: store it now.`,
    examples: [SAMPLE_SECRET],
  });

export const WebhookEndpointWithSecretSchema = Type.Object(
  {
    ...endpointProperties,
    secret: secretSchema(''),
  },
  {
    $id: 'WebhookEndpointWithSecret',
    additionalProperties: false,
    description: 'A webhook endpoint with its signing secret, answered once: when it is added, and when its secret is rotated. **Beta.**',
    examples: [{ ...SAMPLE_ENDPOINT, secret: SAMPLE_SECRET }],
  },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;

export const UpdatedWebhookEndpointSchema = Type.Object(
  {
    ...endpointProperties,
    secret: Type.Optional(
      secretSchema(
        'Present only when this change widened `allowedTypes` (a type the endpoint did not receive before): the secret was replaced at once, the old one signs nothing more (it may be known to a key that could not read the new types). ',
      ),
    ),
  },
  {
    $id: 'UpdatedWebhookEndpoint',
    additionalProperties: false,
    description:
      'A webhook endpoint as a change left it; with its new signing secret only when the change widened `allowedTypes`, which replaces the secret. **Beta.**',
    examples: [SAMPLE_ENDPOINT, { ...SAMPLE_ENDPOINT, secret: SAMPLE_SECRET }],
  },
);
export type UpdatedWebhookEndpoint = Static<typeof UpdatedWebhookEndpointSchema>;

export const WebhookEndpointsSchema = Type.Array(Type.Ref(WebhookEndpointSchema), {
  $id: 'WebhookEndpoints',
  description: 'A page of webhook endpoints in ascending id order. When more follow, the response carries a `Link` header with `rel="next"`.',
});

export const NewWebhookEndpointSchema = Type.Object(
  { url: urlSchema, events: eventsSchema, description: Type.Optional(descriptionSchema) },
  {
    $id: 'NewWebhookEndpoint',
    additionalProperties: false,
    description: 'A webhook endpoint to add. Checked strictly: no type is converted, `null` is not a value, and any other field is refused by name.',
    examples: [{ url: SAMPLE_URL, events: ['pet.*', 'order.delivered'], description: 'Shop front: drop sold animals' }],
  },
);
export type NewWebhookEndpoint = Static<typeof NewWebhookEndpointSchema>;

export const WebhookEndpointPatchSchema = Type.Object(
  {
    url: Type.Optional(urlSchema),
    events: Type.Optional(eventsSchema),
    description: Type.Optional(Type.Union([descriptionSchema, Type.Null()], { description: 'A new description, or `null` to remove it.' })),
    status: Type.Optional(statusSchema),
  },
  {
    $id: 'WebhookEndpointPatch',
    additionalProperties: false,
    minProperties: 1,
    description:
      'A JSON Merge Patch (RFC 7396) of a webhook endpoint: the fields given replace the stored ones, the others stay. `description: null` removes the description; `null` is refused for the other fields, which every endpoint has. `status: "enabled"` also clears `disabledReason`. An empty patch `{}` is refused.',
    examples: [{ status: 'enabled' }, { events: ['order.*'], description: null }],
  },
);
export type WebhookEndpointPatch = Static<typeof WebhookEndpointPatchSchema>;

export const ListWebhookEndpointsQuerySchema = Type.Object(
  {
    limit: pageLimitSchema('endpoints'),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service; `limit` may change between pages. A cursor that was altered, made by anyone else or for another listing answers 400 `invalid_cursor`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListWebhookEndpointsQuery = Static<typeof ListWebhookEndpointsQuerySchema>;

/** The path parameters of one endpoint's operations; `example` is the sample endpoint it acts on (SAMPLE_STORE). */
export const endpointIdParamsSchema = (example: number) => Type.Object({ endpointId: int64('Identifier of the webhook endpoint.', example) });
