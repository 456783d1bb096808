/**
 * The events feed as TypeBox schemas: they validate requests, serialise responses and generate
 * the OpenAPI document.
 */
import { type Static, Type } from '@sinclair/typebox';
import { OrderSchema } from '../orders/orders.schemas.js';
import { pageLimitSchema } from '../pagination/page-size.js';
import { MAX_EXACT_INTEGER, PetSchema } from '../pets/pets.schemas.js';
import { CHANGEABLE_PET_FIELDS, EVENT_TYPE_GROUPS, EVENT_TYPES, type EventType, type EventTypeFilter } from './events.types.js';

export const EventTypeSchema = Type.Unsafe<EventType>({
  $id: 'EventType',
  type: 'string',
  enum: [...EVENT_TYPES],
  description:
    'What happened: `pet.created`, `pet.updated` (`changed` names the fields), `pet.deleted`; `order.placed`, `order.approved`, `order.delivered`, `order.cancelled`. An order action that changes its animal records both the order event and `pet.updated`.',
});

export const EventSchema = Type.Object(
  {
    id: Type.Integer({
      format: 'int64',
      minimum: 1,
      maximum: MAX_EXACT_INTEGER,
      description: 'Unique identifier assigned by the service, never reused. The feed is ordered by its cursor, which need not be id order.',
      examples: [1042],
    }),
    type: Type.Unsafe<EventType>({ $ref: 'EventType' }),
    occurredAt: Type.String({
      format: 'date-time',
      description: 'When the change was written: RFC 3339, UTC, millisecond precision.',
      examples: ['2026-11-27T09:30:00.000Z'],
    }),
    data: Type.Union([Type.Ref(PetSchema), Type.Ref(OrderSchema)], {
      description: 'The Pet (`pet.*`) or Order (`order.*`) as it is after the change; for `pet.deleted`, as it was when removed.',
    }),
    changed: Type.Optional(
      Type.Array(Type.Unsafe<(typeof CHANGEABLE_PET_FIELDS)[number]>({ type: 'string', enum: [...CHANGEABLE_PET_FIELDS] }), {
        minItems: 1,
        description: '`pet.updated` only: the fields the change gave another value. A change that leaves every field as it was records no event.',
      }),
    ),
  },
  {
    $id: 'Event',
    additionalProperties: false,
    description: 'A change of the store. **Beta.**',
    examples: [
      {
        id: 1042,
        type: 'pet.updated',
        occurredAt: '2026-11-27T09:30:00.000Z',
        data: { id: 42, name: 'Rex', categoryId: 3, status: 'pending' },
        changed: ['status'],
      },
    ],
  },
);
export type Event = Static<typeof EventSchema>;

export const EventsSchema = Type.Array(Type.Ref(EventSchema), {
  $id: 'Events',
  description: 'A page of the feed, oldest first. Every answer carries `Link: <…>; rel="next"`, also an empty one: the feed never ends.',
});

/** The longest long poll (`wait`), in seconds. */
const MAX_WAIT_SECONDS = 30;

const TYPE_FILTER_VALUES: readonly EventTypeFilter[] = [...EVENT_TYPES, ...EVENT_TYPE_GROUPS];

export const ListEventsQuerySchema = Type.Object(
  {
    limit: pageLimitSchema('events'),
    type: Type.Optional(
      Type.Array(Type.Unsafe<EventTypeFilter>({ type: 'string', enum: [...TYPE_FILTER_VALUES] }), {
        minItems: 1,
        maxItems: TYPE_FILTER_VALUES.length,
        description:
          'Return only events of these types: repeat the parameter (`type=pet.*&type=order.delivered`), each an exact type or a group (`pet.*`, `order.*`). Without it, every type the key may read. Asking only for types the key may not read answers 403 `insufficient_scope`; types it may not read among others are left out.',
      }),
    ),
    start: Type.Optional(
      Type.Unsafe<'latest'>({
        type: 'string',
        enum: ['latest'],
        description:
          '`latest`: answer no event, only the `Link` to the events that come after the newest one, to follow the store from now on. Not with `cursor`.',
      }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description: `Long poll: when no event would be answered, hold the answer until one is there or this many seconds (0 to ${MAX_WAIT_SECONDS}, decimal digits) have passed, then answer as usual (with its \`Link\`). 0, the default, answers at once. With \`start=latest\`: the first events after the newest one. A key's long polls waiting on one instance are capped at \`EVENT_STREAMS_PER_KEY\`: the next is answered at once. A stopping instance answers its waiting long polls at once.`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Opaque position from the `Link: <…>; rel="next"` header of a previous answer, signed by the service. Use it with the same `type` filter it was made for; `limit` may change. Without it the feed starts at the oldest event kept. A cursor that was altered, made by anyone else or for other filters answers 400 `invalid_cursor`; one whose next events were purged (kept `EVENT_RETENTION_DAYS`), 410 `cursor_expired`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListEventsQuery = Static<typeof ListEventsQuerySchema>;
