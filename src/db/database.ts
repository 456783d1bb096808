/**
 * The one description of what is stored. Column names are snake_case in the database and
 * camelCase here (Kysely's CamelCasePlugin maps them), so repositories read like the domain.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export type PetStatus = 'available' | 'pending' | 'sold';

/** Times are stored as Unix epoch milliseconds: one representation on every dialect. */
type EpochMs = number;

interface PetTable {
  id: Generated<number>;
  name: string;
  /** The name's search key (pets/pet-name-key.ts), written with every name; compared by `name` filters. */
  nameKey: string;
  categoryId: number;
  status: PetStatus;
  createdAt: ColumnType<EpochMs, EpochMs, never>;
  /** 1 when inserted, one more at each update: what a pet's ETag is made of. */
  version: Generated<number>;
}

interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  /** The first characters of the key, shown in listings and logs so a key can be recognised. */
  prefix: string;
  /** Hex SHA-256 of the whole key; the plaintext is never stored. */
  secretHash: string;
  createdAt: ColumnType<EpochMs, EpochMs, never>;
  expiresAt: EpochMs | null;
  revokedAt: EpochMs | null;
  /** What the key may do: scopes separated by spaces (see keys/scopes.ts). */
  scopes: string;
  /** The key's last use as of the last flush (keys/key-usage.ts); written only in batches. */
  lastUsedAt: ColumnType<EpochMs | null, EpochMs | null | undefined, EpochMs | null>;
}

/** Secrets the service made for itself, such as the cursor signing secret. */
interface ServiceSecretTable {
  name: string;
  value: string;
  createdAt: ColumnType<EpochMs, EpochMs, never>;
}

export type OrderStatus = 'placed' | 'approved' | 'delivered' | 'cancelled';

/**
 * An order of the store for one pet. No foreign key to pets: a pet may be removed once it has no
 * open order, and its closed orders stay readable with the petId they were for.
 */
interface OrderTable {
  id: Generated<number>;
  petId: number;
  status: OrderStatus;
  createdAt: ColumnType<EpochMs, EpochMs, never>;
  updatedAt: EpochMs;
}

/**
 * An `Idempotency-Key` a key sent with an unsafe request (idempotency/): reserved while the
 * request runs, then holding its answer until it expires.
 */
interface IdempotencyKeyTable {
  apiKeyId: number;
  idempotencyKey: string;
  fingerprint: string;
  state: 'in_progress' | 'done';
  owner: string;
  /** While in progress: after this instant another request with the same fingerprint may take it over. */
  lockedUntil: EpochMs;
  responseStatus: number | null;
  /** JSON object of the replayed headers (content-type, location, etag). */
  responseHeaders: string | null;
  responseBody: string | null;
  createdAt: EpochMs;
  expiresAt: EpochMs;
}

/**
 * The events outbox (src/events/): one row per change of a pet or an order, written by triggers
 * in the transaction of the change (migration 2026-11-27T02-events).
 */
interface EventTable {
  id: Generated<number>;
  /**
   * The feed's key. SQLite: the event's id, set as it is inserted. PostgreSQL: null until the
   * sequencer numbers the committed event (events/events.sequencer.ts); the feed reads only
   * numbered events. Never reused.
   */
  position: ColumnType<number, number | undefined, number>;
  type: string;
  occurredAt: Generated<EpochMs>;
  /** The pet's or order's columns as JSON, times in epoch milliseconds. */
  data: string;
  /** pet.updated: a JSON array of the changed fields' API names; otherwise null. */
  changed: string | null;
}

/**
 * One row: the feed position of the newest event purged, 0 before any purge, and the same by type
 * (src/events/events.retention.ts).
 */
interface EventsRetentionTable {
  singleton: number;
  purgedPosition: number;
  /** JSON object: event type → position of the newest purged event of that type. */
  purgedTypes: string;
}

/**
 * PostgreSQL only: the feed positions of the events that existed when positions replaced the
 * (txn, id) keys, so a cursor of before still translates exactly (events/events.cursor.ts).
 */
interface EventsLegacyPositionTable {
  txn: number;
  id: number;
  position: number;
}

/**
 * A webhook endpoint of the store (src/webhooks/, migration 2026-11-27T04-webhooks). The signing
 * secret is kept as it is (the service signs with it); the previous one signs too until it expires.
 */
interface WebhookEndpointTable {
  id: Generated<number>;
  url: string;
  description: string | null;
  /** JSON array of the event types and groups (`pet.*`) asked for. */
  events: string;
  /** JSON array of the event types the creating key could read: the endpoint keeps them. */
  allowedTypes: string;
  status: 'enabled' | 'disabled';
  /** Why the service disabled it (the receiver answered 410, it failed for days); null otherwise. */
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: EpochMs | null;
  createdByKeyId: number | null;
  /** The first failure of the current run of failures; null once a delivery succeeds. */
  failingSince: EpochMs | null;
  createdAt: ColumnType<EpochMs, EpochMs, never>;
  updatedAt: EpochMs;
}

export type WebhookDeliveryState = 'pending' | 'succeeded' | 'failed';

/** One message (an event or a `webhook.test`) to one endpoint, sent until it succeeds or its schedule ends. */
interface WebhookDeliveryTable {
  id: Generated<number>;
  endpointId: number;
  /** The `webhook-id` header: the same on every attempt. */
  messageId: string;
  /** The event delivered; null for a `webhook.test`. */
  eventId: number | null;
  eventType: string;
  /** The body exactly as sent. */
  payload: string;
  state: WebhookDeliveryState;
  attempts: Generated<number>;
  /** When pending: when the next attempt is due. */
  nextAttemptAt: EpochMs | null;
  /** The dispatcher that claimed it, until `leaseUntil`; after that another may send it again. */
  leaseOwner: string | null;
  leaseUntil: EpochMs | null;
  createdAt: ColumnType<EpochMs, EpochMs, never>;
  lastAttemptAt: EpochMs | null;
}

/** One attempt of a delivery and what came of it. */
interface WebhookAttemptTable {
  id: Generated<number>;
  deliveryId: number;
  attemptedAt: EpochMs;
  durationMs: number;
  /** The receiver's status, or null when it did not answer (then `error` says why). */
  statusCode: number | null;
  error: string | null;
  outcome: 'succeeded' | 'failed';
}

/** One row: the feed position up to which events were fanned out into deliveries. */
interface WebhookDispatchTable {
  singleton: number;
  fannedPosition: number;
}

export interface Database {
  pets: PetTable;
  events: EventTable;
  eventsRetention: EventsRetentionTable;
  eventsLegacyPositions: EventsLegacyPositionTable;
  idempotencyKeys: IdempotencyKeyTable;
  orders: OrderTable;
  apiKeys: ApiKeyTable;
  serviceSecrets: ServiceSecretTable;
  webhookEndpoints: WebhookEndpointTable;
  webhookDeliveries: WebhookDeliveryTable;
  webhookAttempts: WebhookAttemptTable;
  webhookDispatch: WebhookDispatchTable;
}

export type PetRow = Selectable<PetTable>;
export type NewPetRow = Insertable<PetTable>;
export type OrderRow = Selectable<OrderTable>;
export type NewOrderRow = Insertable<OrderTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type NewApiKeyRow = Insertable<ApiKeyTable>;
export type EventRow = Selectable<EventTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type NewWebhookEndpointRow = Insertable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;
