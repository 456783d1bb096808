/**
 * Webhook endpoints and receivers for the dispatcher's tests: an endpoint row written straight into
 * `webhook_endpoints` (as the endpoints' API would make it), and a real HTTP receiver on 127.0.0.1
 * that records every request and answers as the test says.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import type { Database, WebhookDeliveryRow, WebhookEndpointRow } from '../../src/db/database.js';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export async function insertWebhookEndpoint(
  db: Kysely<Database>,
  fields: { url: string; events?: string[]; allowedTypes?: string[]; secret?: string; now?: number } & Partial<Pick<WebhookEndpointRow, 'previousSecret' | 'previousSecretExpiresAt' | 'failingSince' | 'status'>>,
): Promise<WebhookEndpointRow> {
  const now = fields.now ?? Date.now();
  return db
    .insertInto('webhookEndpoints')
    .values({
      url: fields.url,
      description: null,
      events: JSON.stringify(fields.events ?? ['pet.*', 'order.*']),
      allowedTypes: JSON.stringify(fields.allowedTypes ?? ['pet.created', 'pet.updated', 'pet.deleted', 'order.placed', 'order.approved', 'order.delivered', 'order.cancelled']),
      status: fields.status ?? 'enabled',
      disabledReason: null,
      secret: fields.secret ?? newWebhookSecret(),
      previousSecret: fields.previousSecret ?? null,
      previousSecretExpiresAt: fields.previousSecretExpiresAt ?? null,
      createdByKeyId: null,
      failingSince: fields.failingSince ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Event ids of the deliveries below: no event row is needed (deliveries outlive purged events). */
let madeUpEventIds = 1_000_000;

/**
 * A delivery row written straight into `webhook_deliveries`, as the fan-out or a test message
 * would make it (settled `failed` unless told): one that no dispatcher sends unless the test says.
 */
export async function insertWebhookDelivery(
  db: Kysely<Database>,
  fields: { endpointId: number; eventType?: string; now?: number } & Partial<Pick<WebhookDeliveryRow, 'state' | 'nextAttemptAt' | 'leaseOwner' | 'leaseUntil'>>,
): Promise<WebhookDeliveryRow> {
  const now = fields.now ?? Date.now();
  const eventType = fields.eventType ?? 'webhook.test';
  const eventId = eventType === 'webhook.test' ? null : ++madeUpEventIds;
  return db
    .insertInto('webhookDeliveries')
    .values({
      endpointId: fields.endpointId,
      messageId: eventId === null ? `msg_test_${randomBytes(12).toString('base64url')}` : `evt_${eventId}`,
      eventId,
      eventType,
      payload: JSON.stringify({ id: eventId, type: eventType, occurredAt: new Date(now).toISOString(), data: {} }),
      state: fields.state ?? 'failed',
      nextAttemptAt: fields.nextAttemptAt ?? null,
      leaseOwner: fields.leaseOwner ?? null,
      leaseUntil: fields.leaseUntil ?? null,
      createdAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Answers a request the test holds (`hold`); no-op once answered. */
  answer(status: number, headers?: Record<string, string>): void;
}

/** What the receiver does with a request: answer it, or hold it open until the test answers. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hold';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: (request: { index: number; body: string }) => ReceiverAnswer = () => ({ status: 204 })): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, headers: Record<string, string> = {}) => {
        if (response.headersSent || response.destroyed) return;
        held.delete(response);
        response.writeHead(status, headers).end();
      };
      const decision = answer({ index: received.length, body });
      received.push({ headers: request.headers, body, answer: send });
      if (decision === 'hold') held.add(response);
      else send(decision.status, decision.headers);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: (count) =>
      new Promise((resolve) => {
        if (received.length >= count) resolve(received);
        else waiters.push({ count, resolve: () => resolve(received) });
      }),
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
