/**
 * The webhook endpoints' use cases: add, read, list, change, remove, rotate the secret. No HTTP
 * here. An endpoint receives only the event types the key that set its `url` or `events` could
 * read (`allowedTypes`, kept whatever becomes of that key): a key cannot send itself, through an
 * endpoint, events it may not read. URLs are checked (webhook-url-policy.ts) before any
 * transaction begins, so no transaction waits on DNS.
 */
import type { Kysely } from 'kysely';
import type { Database, WebhookEndpointRow } from '../db/database.js';
import { retriedWriteTransaction } from '../db/retry-conflicts.js';
import { AppError } from '../errors.js';
import { readableTypes } from '../events/events.service.js';
import { type EventType, type EventTypeFilter, expandTypeFilter, scopeToRead } from '../events/events.types.js';
import type { Scope } from '../keys/scopes.js';
import { cursorCodecPerSecret } from '../pagination/cursor.js';
import {
  countWebhookEndpoints,
  deleteWebhookEndpointRow,
  findWebhookEndpointById,
  findWebhookEndpointsAfter,
  insertWebhookEndpoint,
  lockEndpointCreation,
  rotateWebhookEndpointSecretRow,
  updateWebhookEndpointRow,
} from './webhook-endpoints.repository.js';
import { lockFannedPosition, stopDeliveriesOutside, stopPendingDeliveries } from './webhook-dispatch.repository.js';
import { WEBHOOK_ENDPOINTS_MAX } from './webhook-endpoints.limits.js';
import type {
  ListWebhookEndpointsQuery,
  NewWebhookEndpoint,
  UpdatedWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from './webhook-endpoints.schemas.js';
import { generateWebhookSecret, PREVIOUS_SECRET_GRACE_MS } from './webhook-secret.js';
import { checkWebhookUrl, type LookupSlots, type WebhookUrlPolicy } from './webhook-url-policy.js';

export interface WebhookEndpointsContext {
  db: Kysely<Database>;
  now: () => number;
  urlPolicy: Omit<WebhookUrlPolicy, 'lookupSlots'>;
  /** The process's lookup slots (webhook-url-policy.ts), shared by POST and PATCH; each request takes them for its key. */
  lookupSlots?: LookupSlots;
  /** Called when a URL is accepted without its lookup, every slot of the process taken. */
  onUnchecked?: () => void;
}

/** The API key making the request: what it may read decides what the endpoint receives. */
export interface ActingKey {
  id: number;
  scopes: readonly Scope[];
}

const endpointCursors = cursorCodecPerSecret<Record<string, never>>({ listing: 'webhook-endpoints', filterNames: [] });

export async function createWebhookEndpoint(context: WebhookEndpointsContext, input: NewWebhookEndpoint, key: ActingKey): Promise<WebhookEndpointWithSecret> {
  const allowedTypes = allowedTypesFor(input.events, key);
  const url = await acceptableUrl(input.url, context, key);
  const secret = generateWebhookSecret();
  const row = await retriedWriteTransaction(context.db, async (trx) => {
    await lockEndpointCreation(trx);
    if ((await countWebhookEndpoints(trx)) >= WEBHOOK_ENDPOINTS_MAX) {
      throw new AppError('webhook_endpoint_limit', `the store has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints, the most it may have; remove one first`);
    }
    const at = context.now();
    return insertWebhookEndpoint(trx, {
      url,
      description: input.description ?? null,
      events: JSON.stringify(distinct(input.events)),
      allowedTypes: JSON.stringify(allowedTypes),
      status: 'enabled',
      disabledReason: null,
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
      createdByKeyId: key.id,
      failingSince: null,
      createdAt: at,
      updatedAt: at,
    });
  });
  return { ...toWebhookEndpoint(row, context.now()), secret };
}

export async function getWebhookEndpoint(db: Kysely<Database>, id: number, now: () => number): Promise<WebhookEndpoint> {
  const row = await findWebhookEndpointById(db, id);
  if (!row) throw endpointNotFound(id);
  return toWebhookEndpoint(row, now());
}

export interface WebhookEndpointPage {
  endpoints: WebhookEndpoint[];
  /** Present when more endpoints follow this page. */
  nextCursor?: string;
}

export async function listWebhookEndpoints(
  db: Kysely<Database>,
  query: ListWebhookEndpointsQuery & { limit: number },
  cursorSecret: string,
  now: () => number,
): Promise<WebhookEndpointPage> {
  const cursors = endpointCursors(cursorSecret);
  const afterId = query.cursor === undefined ? 0 : cursors.decode(query.cursor, {});
  // One extra row tells whether a next page exists without a second query.
  const rows = await findWebhookEndpointsAfter(db, { afterId, limit: query.limit + 1 });
  const at = now();
  const endpoints = rows.slice(0, query.limit).map((row) => toWebhookEndpoint(row, at));
  const last = endpoints.at(-1);
  return rows.length > query.limit && last ? { endpoints, nextCursor: cursors.encode(last.id, {}) } : { endpoints };
}

/**
 * Applies a merge patch. A patch that sets `url` or `events` makes the acting key answer for what
 * the endpoint receives: `allowedTypes` becomes what it may read of the (new or kept) `events`, so
 * a key cannot redirect to itself, or widen, an endpoint that receives what it may not read. In the
 * same transaction the pending deliveries of types the endpoint no longer receives fail (they were
 * queued for the old receiver or the old key), and disabling fails all of them, as the service's own
 * disabling does: nothing queued is sent after the change. The fan-out's lock is taken first, so no
 * batch that read the endpoint as it was adds deliveries after them. Enabling clears why the service
 * had disabled it, and its run of failures; it revives no failed delivery.
 *
 * A patch that widens `allowedTypes` (a type it did not receive) also replaces the signing secret at
 * once, without overlap, and answers the new one: the old one may be known to a key that could not
 * read the new types (it created the endpoint, or rotated its secret then), and with it that key
 * could sign such events as the store.
 */
export async function updateWebhookEndpoint(
  context: WebhookEndpointsContext,
  id: number,
  patch: WebhookEndpointPatch,
  key: ActingKey,
): Promise<UpdatedWebhookEndpoint> {
  const url = patch.url === undefined ? undefined : await acceptableUrl(patch.url, context, key);
  const readsAgain = patch.url !== undefined || patch.events !== undefined;
  const stops = readsAgain || patch.status === 'disabled';
  const newSecret = generateWebhookSecret();
  const { row, widened } = await retriedWriteTransaction(context.db, async (trx) => {
    // The fan-out's lock before the endpoint's, in the fan-out's own order (it locks its position, then its inserts check the endpoint's key).
    if (stops) await lockFannedPosition(trx);
    const current = await findWebhookEndpointById(trx, id, { lock: true });
    if (!current) throw endpointNotFound(id);
    const events = patch.events ?? (JSON.parse(current.events) as EventTypeFilter[]);
    const allowedTypes = readsAgain ? allowedTypesFor(events, key) : undefined;
    const before = JSON.parse(current.allowedTypes) as EventType[];
    const widens = allowedTypes !== undefined && allowedTypes.some((type) => !before.includes(type));
    const changed = await updateWebhookEndpointRow(
      trx,
      id,
      {
        ...(url === undefined ? {} : { url }),
        ...(patch.events === undefined ? {} : { events: JSON.stringify(distinct(patch.events)) }),
        ...(allowedTypes === undefined ? {} : { allowedTypes: JSON.stringify(allowedTypes) }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.status === undefined ? {} : { status: patch.status, disabledReason: null }),
        ...(patch.status === 'enabled' ? { failingSince: null } : {}),
        updatedAt: context.now(),
      },
      // Widened: the secret may be known to a key that could not read the new types (it signed nothing of them yet), so it ends now, without overlap.
      widens ? { secret: newSecret } : undefined,
    );
    if (patch.status === 'disabled') await stopPendingDeliveries(trx, id);
    else if (allowedTypes !== undefined) await stopDeliveriesOutside(trx, id, allowedTypes);
    return { row: changed ?? current, widened: widens };
  });
  const endpoint = toWebhookEndpoint(row, context.now());
  return widened ? { ...endpoint, secret: newSecret } : endpoint;
}

/**
 * Removes the endpoint with its deliveries and attempts (the foreign keys cascade). A retried write
 * transaction: the cascade locks deliveries that a dispatcher recording an attempt may hold, and
 * PostgreSQL may pick the removal as a deadlock's victim; run again, it succeeds.
 */
export async function deleteWebhookEndpoint(db: Kysely<Database>, id: number): Promise<void> {
  const { deleted } = await retriedWriteTransaction(db, (trx) => deleteWebhookEndpointRow(trx, id));
  if (!deleted) throw endpointNotFound(id);
}

/** A 403 naming the read scopes the key lacks, for the challenge (WWW-Authenticate). */
export class EndpointScopeRefusal extends AppError {
  constructor(
    readonly scopes: readonly Scope[],
    message: string,
  ) {
    super('insufficient_scope', message);
  }
}

/**
 * A new secret, answered once. The one it replaces signs deliveries beside it for
 * PREVIOUS_SECRET_GRACE_MS; a second rotation within that time ends the oldest at once (only the
 * two newest secrets ever sign). Refused (403) to a key that may not read every type the endpoint
 * receives: with the secret it could sign, as the store, events it may not read (forged order events).
 */
export async function rotateWebhookEndpointSecret(db: Kysely<Database>, id: number, key: ActingKey, now: () => number): Promise<WebhookEndpointWithSecret> {
  const secret = generateWebhookSecret();
  const row = await retriedWriteTransaction(db, async (trx) => {
    const current = await findWebhookEndpointById(trx, id, { lock: true });
    if (!current) throw endpointNotFound(id);
    const lacking = [...new Set((JSON.parse(current.allowedTypes) as EventType[]).map(scopeToRead))].filter((scope) => !key.scopes.includes(scope));
    if (lacking.length > 0) {
      throw new EndpointScopeRefusal(
        lacking,
        `webhook endpoint ${id} receives events this key may not read, so it may not have its signing secret: that needs the scope ${lacking.join(' and ')}; its scopes: ${key.scopes.join(', ')}`,
      );
    }
    const at = now();
    return rotateWebhookEndpointSecretRow(trx, id, { secret, previousExpiresAt: at + PREVIOUS_SECRET_GRACE_MS, updatedAt: at });
  });
  if (!row) throw endpointNotFound(id);
  return { ...toWebhookEndpoint(row, row.updatedAt), secret };
}

/** What the key may read of the events asked for; 403 when nothing (as the feed answers). */
function allowedTypesFor(events: readonly EventTypeFilter[], key: ActingKey): EventType[] {
  return readableTypes(expandTypeFilter(events), key.scopes);
}

async function acceptableUrl(text: string, context: WebhookEndpointsContext, key: ActingKey): Promise<string> {
  const slots = context.lookupSlots;
  const policy: WebhookUrlPolicy = { ...context.urlPolicy, ...(slots ? { lookupSlots: { slots, keyId: key.id, onUnchecked: context.onUnchecked } } : {}) };
  const verdict = await checkWebhookUrl(text, policy);
  if (verdict.accepted) return verdict.url;
  // Every lookup slot of this key is taken: 503 with Retry-After (error-handler.ts), for this key only.
  if (verdict.busy) throw new AppError('service_unavailable', `body.url ${verdict.reason}`);
  const message = `body.url ${verdict.reason}`;
  throw new AppError('validation_failed', message, [{ field: 'body.url', message }]);
}

/** Each event filter once, in the order first given: a type named twice counts once. */
function distinct(events: readonly EventTypeFilter[]): EventTypeFilter[] {
  return [...new Set(events)];
}

function endpointNotFound(id: number): AppError {
  return new AppError('webhook_endpoint_not_found', `no webhook endpoint has id ${id}`);
}

/** A stored endpoint as the API shows it: never its secrets. */
function toWebhookEndpoint(row: WebhookEndpointRow, now: number): WebhookEndpoint {
  const endpoint: WebhookEndpoint = {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventTypeFilter[],
    allowedTypes: JSON.parse(row.allowedTypes) as EventType[],
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
  if (row.description !== null) endpoint.description = row.description;
  if (row.status === 'disabled' && row.disabledReason !== null) endpoint.disabledReason = row.disabledReason;
  if (row.previousSecret !== null && row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now) {
    endpoint.previousSecretExpiresAt = new Date(row.previousSecretExpiresAt).toISOString();
  }
  return endpoint;
}
