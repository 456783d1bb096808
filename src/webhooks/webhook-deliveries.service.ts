/**
 * The deliveries' use cases, for the routes: an endpoint's deliveries with their attempts, a retry
 * by hand (the same message again, now), and a test message. No HTTP here; the dispatcher sends.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, WebhookAttemptRow } from '../db/database.js';
import { AppError } from '../errors.js';
import { cursorCodecPerSecret } from '../pagination/cursor.js';
import { type DeliveryListRow, endpointExists, findDeliveries, findLastAttempts, insertDeliveryForEndpoint, makeDeliveryDue } from './webhook-deliveries.repository.js';
import { ATTEMPTS_SHOWN, type ListDeliveriesQuery, type WebhookDelivery, type WebhookTestEvent } from './webhook-deliveries.schemas.js';

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

export async function listDeliveries(db: Kysely<Database>, endpointId: number, query: ListDeliveriesQuery & { limit: number }, cursorSecret: string): Promise<DeliveryPage> {
  const filters = { endpointId, outcome: query.outcome };
  const cursors = deliveryCursors(cursorSecret);
  const beforeId = query.cursor === undefined ? undefined : cursors.decode(query.cursor, filters);
  await requireEndpoint(db, endpointId);
  const rows = await findDeliveries(db, { endpointId, beforeId, state: query.outcome, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const deliveries = await withAttempts(db, page);
  const last = page.at(-1);
  return rows.length > query.limit && last ? { deliveries, nextCursor: cursors.encode(last.id, filters) } : { deliveries };
}

/** Sends the delivery again now, whatever its state: it becomes pending, due now. */
export async function retryDelivery(db: Kysely<Database>, endpointId: number, deliveryId: number, now: () => number): Promise<WebhookDelivery> {
  const row = await makeDeliveryDue(db, endpointId, deliveryId, now());
  if (!row) {
    await requireEndpoint(db, endpointId);
    throw new AppError('webhook_delivery_not_found', `webhook endpoint ${endpointId} has no delivery ${deliveryId}`);
  }
  return (await withAttempts(db, [row]))[0]!;
}

/** A `webhook.test` message to the endpoint, due now, under a `webhook-id` of its own. */
export async function sendTestMessage(db: Kysely<Database>, endpointId: number, now: () => number): Promise<WebhookDelivery> {
  const at = now();
  const body: WebhookTestEvent = { type: 'webhook.test', occurredAt: new Date(at).toISOString(), data: { endpointId, message: TEST_MESSAGE } };
  const row = await insertDeliveryForEndpoint(db, {
    endpointId,
    messageId: `msg_test_${randomBytes(12).toString('base64url')}`,
    eventId: null,
    eventType: 'webhook.test',
    payload: JSON.stringify(body),
    state: 'pending',
    nextAttemptAt: at,
    createdAt: at,
  });
  if (!row) throw endpointNotFound(endpointId);
  return toDelivery(row, []);
}

async function requireEndpoint(db: Kysely<Database>, endpointId: number): Promise<void> {
  if (!(await endpointExists(db, endpointId))) throw endpointNotFound(endpointId);
}

function endpointNotFound(endpointId: number): AppError {
  return new AppError('webhook_endpoint_not_found', `no webhook endpoint has id ${endpointId}`);
}

async function withAttempts(db: Kysely<Database>, rows: readonly DeliveryListRow[]): Promise<WebhookDelivery[]> {
  const attempts = await findLastAttempts(db, rows.map((row) => row.id), ATTEMPTS_SHOWN);
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
