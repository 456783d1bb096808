/**
 * Webhook endpoints and receivers for the dispatcher's tests: an endpoint row written straight into
 * `webhook_endpoints` (as the endpoints' API would make it), and a real HTTP receiver on 127.0.0.1
 * that records every request, answers as the test says, and counts the connections it has open.
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
  fields: { url: string; events?: string[]; allowedTypes?: string[]; secret?: string; now?: number } & Partial<
    Pick<WebhookEndpointRow, 'previousSecret' | 'previousSecretExpiresAt' | 'failingSince' | 'status'>
  >,
): Promise<WebhookEndpointRow> {
  const now = fields.now ?? Date.now();
  return db
    .insertInto('webhookEndpoints')
    .values({
      url: fields.url,
      description: null,
      events: JSON.stringify(fields.events ?? ['pet.*', 'order.*']),
      allowedTypes: JSON.stringify(
        fields.allowedTypes ?? ['pet.created', 'pet.updated', 'pet.deleted', 'order.placed', 'order.approved', 'order.delivered', 'order.cancelled'],
      ),
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

/**
 * What the receiver does with a request: answer it, hold it open until the test answers, or answer
 * 200 with its headers at once and a body that never ends: `drip`, one byte every DRIP_INTERVAL_MS;
 * `flood`, FLOOD_BYTES at once, then nothing.
 */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hold' | 'drip' | 'flood';

/** How often a dripping answer sends its next byte. */
const DRIP_INTERVAL_MS = 100;
/** What a flooding answer sends: twice the most a sender reads of a body. */
const FLOOD_BYTES = 128 * 1024;

/** Connections open now, the most open at once (in all, and until one closed), and those closed: of one receiver, or of several sharing one tally. */
export interface ConnectionTally {
  open: number;
  peak: number;
  /** The most connections open at once before any closed, within the first attempts' timeout. */
  peakBeforeAnyClosed: number;
  closed: number;
  /** When the first connection came (performance.now()). */
  firstAt?: number;
}

/** A little less than the attempts' timeout (15 s): the window in which no send can have ended. */
const FIRST_TIMEOUT_WINDOW_MS = 14_000;

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<ReceivedWebhook[]>;
  /** The connections senders have open to it (the tally given, when one was). */
  connections: ConnectionTally;
  /** Bytes of body its dripping answers have written so far. */
  dripped(): number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  answer: (request: { index: number; body: string }) => ReceiverAnswer = () => ({ status: 204 }),
  options: { connections?: ConnectionTally } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const held = new Set<ServerResponse>();
  const drips = new Set<NodeJS.Timeout>();
  let dripped = 0;
  const connections = options.connections ?? { open: 0, peak: 0, peakBeforeAnyClosed: 0, closed: 0 };
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
      else if (decision === 'drip') drip(response);
      else if (decision === 'flood') flood(response);
      else send(decision.status, decision.headers);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  const drip = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.flushHeaders();
    const timer = setInterval(() => {
      response.write('.');
      dripped++;
    }, DRIP_INTERVAL_MS);
    drips.add(timer);
    response.once('close', () => {
      clearInterval(timer);
      drips.delete(timer);
    });
  };
  const flood = (response: ServerResponse) => {
    held.add(response);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write(Buffer.alloc(FLOOD_BYTES, '.'));
  };
  server.on('connection', (socket) => {
    connections.open++;
    connections.peak = Math.max(connections.peak, connections.open);
    // Until the first attempt's timeout (15 s after the first connection) no send has ended, so every
    // connection is one of the service's slots. After it, a new connection can be seen here before the
    // close of the one the service just dropped, and the count would be one too many for a moment.
    connections.firstAt ??= performance.now();
    if (connections.closed === 0 && performance.now() - connections.firstAt < FIRST_TIMEOUT_WINDOW_MS) connections.peakBeforeAnyClosed = connections.peak;
    socket.once('close', () => {
      connections.open--;
      connections.closed++;
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
    connections,
    dripped: () => dripped,
    async close() {
      for (const timer of drips) clearInterval(timer);
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
