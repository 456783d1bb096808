/**
 * The deliveries' use cases, for the routes: an endpoint's deliveries with their attempts, a retry
 * by hand (the same message again, now), and a test message. No HTTP here; the dispatcher sends.
 * Neither a retry nor a test revives what nothing would send (a disabled endpoint), nor sends a key,
 * or a receiver, an event type it may not read.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, WebhookAttemptRow } from '../db/database.js';
import { retriedWriteTransaction } from '../db/retry-conflicts.js';
import { AppError } from '../errors.js';
import { EVENT_TYPES, type EventType, scopeToRead } from '../events/events.types.js';
import type { Scope } from '../keys/scopes.js';
import { cursorCodecPerSecret } from '../pagination/cursor.js';
import {
  type DeliveryListRow,
  endpointExists,
  findDeliveries,
  findDeliveryEventType,
  findLastAttempts,
  insertDelivery,
  makeDeliveryDue,
} from './webhook-deliveries.repository.js';
import { ATTEMPTS_SHOWN, type ListDeliveriesQuery, type WebhookDelivery, type WebhookTestEvent } from './webhook-deliveries.schemas.js';
import { findWebhookEndpointById } from './webhook-endpoints.repository.js';

interface DeliveryCursorFilters {
  [name: string]: string | number | undefined;
  endpointId: number;
  outcome?: string | undefined;
}

const deliveryCursors = cursorCodecPerSecret<DeliveryCursorFilters>({ listing: 'webhook-deliveries', filterNames: ['endpointId', 'outcome'] });

export const TEST_MESSAGE = 'A test message from animal-store: this endpoint receives webhooks.';

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  nextCursor?: string;
}

/**
 * The endpoint's deliveries that the key may read: those of event types its scopes read, and the
 * test messages. A delivery tells its event's type, id and time, and how its receiver answered:
 * a key with `webhooks:read` but not `orders:read` does not learn of order events through it.
 */
export async function listDeliveries(
  db: Kysely<Database>,
  endpointId: number,
  query: ListDeliveriesQuery & { limit: number },
  cursorSecret: string,
  key: { scopes: readonly Scope[] },
): Promise<DeliveryPage> {
  const filters = { endpointId, outcome: query.outcome };
  const cursors = deliveryCursors(cursorSecret);
  const beforeId = query.cursor === undefined ? undefined : cursors.decode(query.cursor, filters);
  await requireEndpoint(db, endpointId);
  const readable = EVENT_TYPES.filter((type) => key.scopes.includes(scopeToRead(type)));
  const eventTypes = readable.length === EVENT_TYPES.length ? undefined : [...readable, 'webhook.test'];
  const rows = await findDeliveries(db, { endpointId, beforeId, state: query.outcome, eventTypes, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const deliveries = await withAttempts(db, page);
  const last = page.at(-1);
  return rows.length > query.limit && last ? { deliveries, nextCursor: cursors.encode(last.id, filters) } : { deliveries };
}

/** A 403 from a retry, with the scope it names in its challenge (WWW-Authenticate). */
export class RetryScopeRefusal extends AppError {
  constructor(
    readonly scope: Scope,
    message: string,
  ) {
    super('insufficient_scope', message);
  }
}

/**
 * Sends the delivery again now, whatever its state: it becomes pending, due now. A delivery of a type
 * the key may not read is 404, as a missing one (the listing leaves it out; a 403 would tell it is
 * there). Refused (403) when the endpoint no longer receives its type (`allowedTypes` narrowed since:
 * the message would go to a receiver set by a key that may not read it); 409 when
 * the endpoint is disabled (nothing would send it) or an attempt of it is in flight. The endpoint
 * is locked first, as a PATCH does, so a retry and a change that stops deliveries never cross.
 */
export async function retryDelivery(
  db: Kysely<Database>,
  endpointId: number,
  deliveryId: number,
  key: { scopes: readonly Scope[] },
  now: () => number,
): Promise<WebhookDelivery> {
  const row = await retriedWriteTransaction(db, async (trx) => {
    const endpoint = await findWebhookEndpointById(trx, endpointId, { lock: true });
    if (!endpoint) throw endpointNotFound(endpointId);
    const eventType = await findDeliveryEventType(trx, endpointId, deliveryId);
    // A delivery of a type the key may not read is answered as a missing one: the listing hides it, so must this.
    if (eventType === undefined || (eventType !== 'webhook.test' && !key.scopes.includes(scopeToRead(eventType as EventType)))) {
      throw new AppError('webhook_delivery_not_found', `webhook endpoint ${endpointId} has no delivery ${deliveryId}`);
    }
    if (eventType !== 'webhook.test') refuseNoLongerReceived(eventType as EventType, JSON.parse(endpoint.allowedTypes) as EventType[], endpointId);
    if (endpoint.status === 'disabled') throw endpointDisabled(endpointId);
    const due = await makeDeliveryDue(trx, endpointId, deliveryId, now());
    if (!due) throw new AppError('webhook_delivery_in_flight', `an attempt of delivery ${deliveryId} is being sent now; retry after it ends`);
    return due;
  });
  return (await withAttempts(db, [row]))[0]!;
}

function refuseNoLongerReceived(type: EventType, allowedTypes: readonly EventType[], endpointId: number): void {
  if (!allowedTypes.includes(type)) {
    const scope = scopeToRead(type);
    throw new RetryScopeRefusal(
      scope,
      `webhook endpoint ${endpointId} no longer receives ${type} events (its allowedTypes were narrowed when its url or events were last set): a key with ${scope} must set its url or events again first`,
    );
  }
}

/** A `webhook.test` message to the endpoint, due now, under a `webhook-id` of its own; 409 when the endpoint is disabled. */
export async function sendTestMessage(db: Kysely<Database>, endpointId: number, now: () => number): Promise<WebhookDelivery> {
  const row = await retriedWriteTransaction(db, async (trx) => {
    // Locked until the insert commits: a removal waits for it (and then removes the delivery), or ends first and this answers 404.
    const endpoint = await findWebhookEndpointById(trx, endpointId, { lock: true });
    if (!endpoint) throw endpointNotFound(endpointId);
    if (endpoint.status === 'disabled') throw endpointDisabled(endpointId);
    const at = now();
    const body: WebhookTestEvent = { type: 'webhook.test', occurredAt: new Date(at).toISOString(), data: { endpointId, message: TEST_MESSAGE } };
    return insertDelivery(trx, {
      endpointId,
      messageId: `msg_test_${randomBytes(12).toString('base64url')}`,
      eventId: null,
      eventType: 'webhook.test',
      payload: JSON.stringify(body),
      state: 'pending',
      nextAttemptAt: at,
      createdAt: at,
    });
  });
  return toDelivery(row, []);
}

function endpointDisabled(endpointId: number): AppError {
  return new AppError('webhook_endpoint_disabled', `webhook endpoint ${endpointId} is disabled: nothing is sent to it; enable it first (PATCH status enabled)`);
}

async function requireEndpoint(db: Kysely<Database>, endpointId: number): Promise<void> {
  if (!(await endpointExists(db, endpointId))) throw endpointNotFound(endpointId);
}

function endpointNotFound(endpointId: number): AppError {
  return new AppError('webhook_endpoint_not_found', `no webhook endpoint has id ${endpointId}`);
}

async function withAttempts(db: Kysely<Database>, rows: readonly DeliveryListRow[]): Promise<WebhookDelivery[]> {
  const attempts = await findLastAttempts(
    db,
    rows.map((row) => row.id),
    ATTEMPTS_SHOWN,
  );
  return rows.map((row) => toDelivery(row, attempts.get(row.id) ?? []));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toDelivery(row: DeliveryListRow, attempts: readonly WebhookAttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventId: row.eventId,
    eventType: row.eventType,
    state: row.state,
    attemptCount: row.attempts,
    nextAttemptAt: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
    createdAt: new Date(row.createdAt).toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    attempts: attempts.map((attempt) => ({
      attemptedAt: new Date(attempt.attemptedAt).toISOString(),
      durationMs: attempt.durationMs,
      outcome: attempt.outcome,
      statusCode: attempt.statusCode,
      error: attempt.error,
    })),
  };
}
