/**
 * SQL of the webhook dispatcher (webhook-dispatcher.ts): the fan-out position, the give-back of
 * claimed deliveries, and what an attempt's outcome writes (the claims: webhook-claims.repository.ts). Every function takes the
 * database (or a transaction) first; each claim and each record is one short transaction of its
 * own, never open across a send.
 */
import type { Kysely } from 'kysely';
import type { Database, NewWebhookDeliveryRow, WebhookDeliveryState } from '../db/database.js';
import { forNoKeyUpdate, forUpdate, singleWrite } from '../db/dialect.js';
import type { EventPosition } from '../events/events.repository.js';

export async function readFannedPosition(db: Kysely<Database>): Promise<EventPosition> {
  return (await db.selectFrom('webhookDispatch').select('fannedPosition').where('singleton', '=', 1).executeTakeFirstOrThrow()).fannedPosition;
}

/** The position up to which the feed's events have been fanned out, locked until the transaction ends. */
export async function lockFannedPosition(trx: Kysely<Database>): Promise<EventPosition> {
  const select = trx.selectFrom('webhookDispatch').select('fannedPosition').where('singleton', '=', 1);
  return (await forUpdate(trx, select).executeTakeFirstOrThrow()).fannedPosition;
}

/** Moves the position to `to` if it is behind it, in one statement: never backwards, whoever else moves it meanwhile. */
export async function moveFannedPositionForward(db: Kysely<Database>, to: EventPosition): Promise<void> {
  await singleWrite(db, (trx) =>
    trx.updateTable('webhookDispatch').set({ fannedPosition: to }).where('singleton', '=', 1).where('fannedPosition', '<', to).execute(),
  );
}

export async function moveFannedPosition(trx: Kysely<Database>, to: EventPosition): Promise<void> {
  await trx.updateTable('webhookDispatch').set({ fannedPosition: to }).where('singleton', '=', 1).execute();
}

export interface FanOutEndpoint {
  id: number;
  /** The patterns asked for (JSON array), and the types the creator could read (JSON array). */
  events: string;
  allowedTypes: string;
}

export async function findEnabledEndpoints(db: Kysely<Database>): Promise<FanOutEndpoint[]> {
  return db.selectFrom('webhookEndpoints').select(['id', 'events', 'allowedTypes']).where('status', '=', 'enabled').orderBy('id').execute();
}

/** Rows per insert statement: far below SQLite's bound on parameters (32766) at 9 columns a row. */
const INSERT_CHUNK = 500;

export async function insertDeliveries(db: Kysely<Database>, rows: readonly NewWebhookDeliveryRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('webhookDeliveries')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

/** Gives claimed deliveries back unsent (the process is stopping, or the endpoint is gone or disabled). */
export async function releaseDeliveries(db: Kysely<Database>, ids: readonly number[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('webhookDeliveries').set({ leaseOwner: null, leaseUntil: null }).where('id', 'in', ids).where('leaseOwner', '=', owner).execute();
}

export interface EndpointForSending {
  id: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  /** JSON array of the event types it receives. */
  allowedTypes: string;
}

/** The endpoint as a send needs it now, read just before the send: undefined once deleted or disabled. */
export async function findEndpointForSending(db: Kysely<Database>, id: number): Promise<EndpointForSending | undefined> {
  return db
    .selectFrom('webhookEndpoints')
    .select(['id', 'url', 'secret', 'previousSecret', 'previousSecretExpiresAt', 'allowedTypes'])
    .where('id', '=', id)
    .where('status', '=', 'enabled')
    .executeTakeFirst();
}

export interface AttemptRecord {
  deliveryId: number;
  owner: string;
  attemptedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
  /** The delivery's state after this attempt, and when the next one is due when pending. */
  state: WebhookDeliveryState;
  nextAttemptAt: number | null;
}

/**
 * The first lock of a failed attempt's record: its endpoint's row, before its delivery's. A PATCH, a
 * DELETE or a retry by hand locks the endpoint, then its deliveries; a record that locked the
 * delivery first, then the endpoint (to mark it failing or disable it), could wait for one of them
 * while it waited for the record: a deadlock PostgreSQL ends by aborting one (40P01). `FOR NO KEY
 * UPDATE` is the lock the record's update of the endpoint takes anyway, and lets the fan-out go on
 * inserting deliveries that reference it. SQLite: the write transaction holds the whole file.
 * Answers whether the endpoint is still there.
 */
export async function lockEndpointForRecord(trx: Kysely<Database>, endpointId: number): Promise<boolean> {
  const row = await forNoKeyUpdate(trx, trx.selectFrom('webhookEndpoints').select('id').where('id', '=', endpointId)).executeTakeFirst();
  return row !== undefined;
}

/**
 * Writes an attempt, only while the claim's lease is still this owner's: the attempt's row, the
 * delivery's count of attempts, and the lease given back. The delivery takes `state` and
 * `nextAttemptAt` only while it is pending: one stopped meanwhile (its endpoint disabled, or its
 * type no longer received) stays failed, and its history still shows the attempt its receiver got.
 * Answers the delivery's endpoint and whether it was pending, or undefined when the lease was lost
 * (taken over after it ended, or ended by a retry by hand) or the delivery is gone (its endpoint
 * deleted meanwhile), in which case nothing is written. Call `lockEndpointForRecord` first.
 */
export async function recordAttempt(trx: Kysely<Database>, record: AttemptRecord): Promise<{ endpointId: number; wasPending: boolean } | undefined> {
  const held = trx.selectFrom('webhookDeliveries').select(['endpointId', 'state']).where('id', '=', record.deliveryId).where('leaseOwner', '=', record.owner);
  const delivery = await forNoKeyUpdate(trx, held).executeTakeFirst();
  if (!delivery) return undefined;
  const wasPending = delivery.state === 'pending';
  await trx
    .updateTable('webhookDeliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      lastAttemptAt: record.attemptedAt,
      // A stopped delivery stays stopped, unless the attempt that was already out reached the receiver: then it was delivered.
      ...(wasPending ? { state: record.state, nextAttemptAt: record.nextAttemptAt } : record.succeeded ? { state: 'succeeded' as const } : {}),
      leaseOwner: null,
      leaseUntil: null,
    }))
    .where('id', '=', record.deliveryId)
    .execute();
  await trx
    .insertInto('webhookAttempts')
    .values({
      deliveryId: record.deliveryId,
      attemptedAt: record.attemptedAt,
      durationMs: record.durationMs,
      statusCode: record.statusCode,
      error: record.error,
      outcome: record.succeeded ? 'succeeded' : 'failed',
    })
    .execute();
  return { endpointId: delivery.endpointId, wasPending };
}

/**
 * A success ends the endpoint's failing spell. It locks the endpoint's row only when there is a
 * spell to end (a row the condition leaves out is neither changed nor locked).
 */
export async function clearFailingSince(trx: Kysely<Database>, endpointId: number): Promise<void> {
  await trx.updateTable('webhookEndpoints').set({ failingSince: null }).where('id', '=', endpointId).where('failingSince', 'is not', null).execute();
}

/** A failure starts the endpoint's failing spell if none is running; answers when it started. */
export async function markFailing(trx: Kysely<Database>, endpointId: number, now: number): Promise<number | undefined> {
  await trx.updateTable('webhookEndpoints').set({ failingSince: now }).where('id', '=', endpointId).where('failingSince', 'is', null).execute();
  const row = await trx.selectFrom('webhookEndpoints').select('failingSince').where('id', '=', endpointId).executeTakeFirst();
  return row?.failingSince ?? undefined;
}

/**
 * Disables an enabled endpoint and stops its pending deliveries (they become failed: nothing more
 * is sent to it; a delivery can still be sent again by hand once it is enabled). Answers whether it
 * was enabled.
 */
export async function disableEndpoint(trx: Kysely<Database>, endpointId: number, reason: string, now: number): Promise<boolean> {
  const changed = await trx
    .updateTable('webhookEndpoints')
    .set({ status: 'disabled', disabledReason: reason, updatedAt: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'enabled')
    .executeTakeFirst();
  if (changed.numUpdatedRows === 0n) return false;
  await stopPendingDeliveries(trx, endpointId);
  return true;
}

/**
 * Ends the pending deliveries of a disabled endpoint. Their leases stay: nothing claims a delivery
 * that is not pending, and an attempt still in flight to it (in this process or another) records
 * what its receiver got without making it pending again (`recordAttempt`); a retry by hand waits
 * for that attempt's end, or for its lease's.
 */
export async function stopPendingDeliveries(db: Kysely<Database>, endpointId: number): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ state: 'failed', nextAttemptAt: null })
    .where('endpointId', '=', endpointId)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Ends the endpoint's pending deliveries of event types it no longer receives (a change of its
 * `url` or `events` narrowed `allowedTypes`): they become failed, never sent to the new receiver.
 * Test messages are kept. Leases stay, as in `stopPendingDeliveries`.
 */
export async function stopDeliveriesOutside(db: Kysely<Database>, endpointId: number, keptTypes: readonly string[]): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ state: 'failed', nextAttemptAt: null })
    .where('endpointId', '=', endpointId)
    .where('state', '=', 'pending')
    .where('eventType', 'not in', ['webhook.test', ...keptTypes])
    .execute();
}
