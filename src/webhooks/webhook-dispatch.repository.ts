/**
 * SQL of the webhook dispatcher (webhook-dispatcher.ts): the fan-out position, the claims and
 * leases of due deliveries, and what an attempt's outcome writes. Every function takes the
 * database (or a transaction) first; each claim and each record is one short transaction of its
 * own, never open across a send.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, NewWebhookDeliveryRow, WebhookDeliveryState } from '../db/database.js';
import { databaseClockMs, forUpdate, forUpdateSkipLocked, idIn, idListParameter, jsonTextArrayHas, singleWrite } from '../db/dialect.js';
import type { EventPosition } from '../events/events.repository.js';

export async function readFannedPosition(db: Kysely<Database>): Promise<EventPosition> {
  return db.selectFrom('webhookDispatch').select(['fannedTxn as txn', 'fannedId as id']).where('singleton', '=', 1).executeTakeFirstOrThrow();
}

/** The position up to which the feed's events have been fanned out, locked until the transaction ends. */
export async function lockFannedPosition(trx: Kysely<Database>): Promise<EventPosition> {
  const select = trx.selectFrom('webhookDispatch').select(['fannedTxn as txn', 'fannedId as id']).where('singleton', '=', 1);
  return forUpdate(trx, select).executeTakeFirstOrThrow();
}

/** Moves the position to `to` if it is behind it, in one statement: never backwards, whoever else moves it meanwhile. */
export async function moveFannedPositionForward(db: Kysely<Database>, to: EventPosition): Promise<void> {
  await singleWrite(db, (trx) =>
    trx
      .updateTable('webhookDispatch')
      .set({ fannedTxn: to.txn, fannedId: to.id })
      .where('singleton', '=', 1)
      .where(sql<boolean>`(${sql.ref('fanned_txn')}, ${sql.ref('fanned_id')}) < (${to.txn}, ${to.id})`)
      .execute(),
  );
}

export async function moveFannedPosition(trx: Kysely<Database>, to: EventPosition): Promise<void> {
  await trx.updateTable('webhookDispatch').set({ fannedTxn: to.txn, fannedId: to.id }).where('singleton', '=', 1).execute();
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
    await db.insertInto('webhookDeliveries').values(rows.slice(start, start + INSERT_CHUNK)).execute();
  }
}

/** A claimed delivery, with what sending it needs (its endpoint is read again just before the send). */
export interface ClaimedDelivery {
  id: number;
  endpointId: number;
  messageId: string;
  /** The event's type, or `webhook.test`. */
  eventType: string;
  payload: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** Which due deliveries a claim may take, and which it looks for (`anyDeliveryDue`). */
export interface DueFilter {
  /** The app's clock: deliveries whose `next_attempt_at` is at or before it are due. */
  now: number;
  /** Endpoints to leave out (those holding their share in this process). */
  skipEndpoints: readonly number[];
}

export interface ClaimQuery extends DueFilter {
  /** Written into lease_owner: unique per claim, so a record after the lease was taken over is refused. */
  owner: string;
  /** The lease's length: it ends this long after the database's clock at the claim. */
  leaseMs: number;
  limit: number;
  /** Most deliveries of one endpoint in one claim. */
  perEndpoint: number;
}

/** The soonest due deliveries a claim ranks at most. */
const CLAIM_SCAN = 1000;

/** A type the endpoint receives: one of its allowed types (kept at creation, or set by a PATCH), or a `webhook.test`. */
const typeAllowed = (db: Kysely<Database>) => sql<boolean>`(d.event_type = 'webhook.test' or ${jsonTextArrayHas(db, 'e.allowed_types', sql.ref('d.event_type'))})`;
/** No lease, or one that ended by the database's clock (never compared with the clock of the process). */
const leaseFree = (db: Kysely<Database>) => sql<boolean>`(d.lease_until is null or d.lease_until < ${databaseClockMs(db)})`;

/** The due, unleased pending deliveries of enabled endpoints, of types they receive (as `d`, joined to `e`). */
function dueDeliveries(db: Kysely<Database>, filter: DueFilter) {
  let due = db
    .selectFrom('webhookDeliveries as d')
    .innerJoin('webhookEndpoints as e', 'e.id', 'd.endpointId')
    .where('d.state', '=', 'pending')
    .where('d.nextAttemptAt', '<=', filter.now)
    .where('e.status', '=', 'enabled')
    .where(leaseFree(db))
    .where(typeAllowed(db));
  if (filter.skipEndpoints.length > 0) due = due.where((eb) => eb.not(idIn(db, idListParameter(db, filter.skipEndpoints), 'd.endpoint_id')));
  return due;
}

/**
 * Leases up to `limit` due pending deliveries of enabled endpoints, of the types each receives, at
 * most `perEndpoint` of one endpoint, and answers them. Fair: each endpoint's soonest due come
 * first (every endpoint's first, then every endpoint's second, …), so a backlog of one endpoint
 * never fills a claim. The ranks are a window function in a derived table; PostgreSQL cannot lock
 * such a table, so the outer query locks only the deliveries (`FOR UPDATE OF d SKIP LOCKED`, the
 * rows another claimer is taking passed over) and checks again, on the row as locked, that it is
 * still pending and unleased. SQLite: the write transaction lets one claimer in at a time. Either
 * way no two claims get one row while its lease holds; the lease is set and compared by the
 * database's clock, so instances whose clocks disagree never cut each other's leases short.
 */
export async function claimDueDeliveries(trx: Kysely<Database>, query: ClaimQuery): Promise<ClaimedDelivery[]> {
  // Ranked among the soonest due CLAIM_SCAN rows only, so a claim costs the same whatever the backlog; an
  // endpoint whose backlog fills them is left out (skipEndpoints) once it holds its share, and the others show.
  const soonest = dueDeliveries(trx, query).select(['d.id', 'd.endpointId', 'd.nextAttemptAt']).orderBy('d.nextAttemptAt').orderBy('d.id').limit(CLAIM_SCAN);
  const ranked = trx.selectFrom(soonest.as('s')).select(['s.id', sql<number>`row_number() over (partition by s.endpoint_id order by s.next_attempt_at, s.id)`.as('rank')]);
  const chosen = trx
    .selectFrom('webhookDeliveries as d')
    .innerJoin(ranked.as('r'), 'r.id', 'd.id')
    .select('d.id')
    .where('r.rank', '<=', query.perEndpoint)
    .where('d.state', '=', 'pending')
    .where(leaseFree(trx))
    .orderBy('r.rank')
    .orderBy('d.nextAttemptAt')
    .orderBy('d.id')
    .limit(query.limit);
  return trx
    .updateTable('webhookDeliveries')
    .set({ leaseOwner: query.owner, leaseUntil: sql<number>`${databaseClockMs(trx)} + ${query.leaseMs}` })
    .where('id', 'in', forUpdateSkipLocked(trx, chosen, 'd'))
    .returning(['id', 'endpointId', 'messageId', 'eventType', 'payload', 'attempts'])
    .execute();
}

/**
 * Whether a claim would find anything: a read, so an idle SQLite dispatcher never takes the write
 * lock. The claim's own filter (enabled endpoints, types they receive, no lease, endpoints not
 * skipped), so deliveries a claim would leave never make it run for nothing at every poll.
 */
export async function anyDeliveryDue(db: Kysely<Database>, filter: DueFilter): Promise<boolean> {
  const row = await dueDeliveries(db, filter).select('d.id').limit(1).executeTakeFirst();
  return row !== undefined;
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
 * Writes an attempt and the delivery's new state, only while the claim's lease is still this
 * owner's: answers the delivery's endpoint, or undefined when the lease was lost (taken over after
 * it ended) or the delivery is gone (its endpoint deleted meanwhile), in which case nothing is written.
 */
export async function recordAttempt(trx: Kysely<Database>, record: AttemptRecord): Promise<{ endpointId: number } | undefined> {
  const updated = await trx
    .updateTable('webhookDeliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      lastAttemptAt: record.attemptedAt,
      state: record.state,
      nextAttemptAt: record.nextAttemptAt,
      leaseOwner: null,
      leaseUntil: null,
    }))
    .where('id', '=', record.deliveryId)
    .where('leaseOwner', '=', record.owner)
    .returning('endpointId')
    .executeTakeFirst();
  if (!updated) return undefined;
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
  return updated;
}

/** A success ends the endpoint's failing spell. */
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
 * Ends the pending deliveries of a disabled endpoint. Their leases go too, so an attempt still in
 * flight to it (in this process or another) finds its lease lost and records nothing: it cannot
 * make a delivery pending again for an endpoint that no dispatcher sends to.
 */
export async function stopPendingDeliveries(db: Kysely<Database>, endpointId: number): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ state: 'failed', nextAttemptAt: null, leaseOwner: null, leaseUntil: null })
    .where('endpointId', '=', endpointId)
    .where('state', '=', 'pending')
    .execute();
}

/** Pending deliveries due now, counted up to `cap` (a backlog of millions costs no more than `cap`). */
export async function countDueDeliveries(db: Kysely<Database>, now: number, cap: number): Promise<number> {
  const due = db.selectFrom('webhookDeliveries').select('id').where('state', '=', 'pending').where('nextAttemptAt', '<=', now).limit(cap);
  const row = await db
    .selectFrom(due.as('due'))
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Ends the endpoint's pending deliveries of event types it no longer receives (a change of its
 * `url` or `events` narrowed `allowedTypes`): they become failed, never sent to the new receiver.
 * Test messages are kept. Leases go too, as in `stopPendingDeliveries`.
 */
export async function stopDeliveriesOutside(db: Kysely<Database>, endpointId: number, keptTypes: readonly string[]): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ state: 'failed', nextAttemptAt: null, leaseOwner: null, leaseUntil: null })
    .where('endpointId', '=', endpointId)
    .where('state', '=', 'pending')
    .where('eventType', 'not in', ['webhook.test', ...keptTypes])
    .execute();
}
