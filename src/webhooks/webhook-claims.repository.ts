/**
 * SQL of the dispatcher's claims (webhook-dispatcher.ts): which deliveries are due, and the claim
 * that leases them. Every statement goes endpoint by endpoint: the enabled endpoints not left out
 * (at most WEBHOOK_ENDPOINTS_MAX), and for each a few of its soonest due pending deliveries, sought
 * in webhook_deliveries_endpoint_due_idx (endpoint_id, next_attempt_at, id where pending; migration
 * 2026-11-27T06). So a claim reads what it may take and never more: the backlog of an endpoint left
 * out (one holding its share in this process because its receiver hangs) is never read, and a
 * large backlog of another costs only the rows the claim takes of it. Walking the due deliveries
 * of all endpoints in due order instead read every one of the first endpoint's backlog at every
 * claim and every poll (inside SQLite's write lock).
 * PostgreSQL: a LATERAL subquery per endpoint; SQLite: a correlated subquery per endpoint, the
 * endpoints first (CROSS JOIN fixes SQLite's join order).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { databaseClockMs, idIn, idListParameter, isPostgres, jsonTextArrayHas } from '../db/dialect.js';

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

interface DueShape {
  now: number;
  skipEndpoints: readonly number[];
  /** Only deliveries without a lease, or whose lease ended by the database's clock. */
  unleased: boolean;
  /** Most rows of one endpoint. */
  perEndpoint: number;
  /** PostgreSQL: lock the rows taken, passing over those another transaction holds. */
  lock: boolean;
  /** Each endpoint's soonest due (a count needs no order). */
  soonest: boolean;
}

/**
 * `select id, endpoint_id, next_attempt_at` of the due pending deliveries of the enabled endpoints
 * (not skipped), of types each receives, at most `perEndpoint` of each: its soonest due.
 */
function duePerEndpoint(db: Kysely<Database>, shape: DueShape): RawBuilder<unknown> {
  // A type the endpoint receives: one of its allowed types (kept at creation, or set by a PATCH), or a webhook.test.
  const typeAllowed = sql`(d.event_type = 'webhook.test' or ${jsonTextArrayHas(db, 'e.allowed_types', sql.ref('d.event_type'))})`;
  // No lease, or one that ended by the database's clock (never compared with the clock of the process).
  const leaseFree = shape.unleased ? sql`and (d.lease_until is null or d.lease_until < ${databaseClockMs(db)})` : sql``;
  const endpointKept = shape.skipEndpoints.length > 0 ? sql`and not ${idIn(db, idListParameter(db, shape.skipEndpoints), 'e.id')}` : sql``;
  const soonest = (columns: RawBuilder<unknown>) => sql`select ${columns} from webhook_deliveries d
    where d.endpoint_id = e.id and d.state = 'pending' and d.next_attempt_at <= ${shape.now} ${leaseFree} and ${typeAllowed}
    ${shape.soonest ? sql`order by d.next_attempt_at, d.id` : sql``} limit ${shape.perEndpoint}`;
  if (isPostgres(db)) {
    return sql`select d.id, d.endpoint_id, d.next_attempt_at from webhook_endpoints e
      cross join lateral (${soonest(sql`d.id, d.endpoint_id, d.next_attempt_at`)} ${shape.lock ? sql`for update skip locked` : sql``}) d
      where e.status = 'enabled' ${endpointKept}`;
  }
  return sql`select c.id, c.endpoint_id, c.next_attempt_at from webhook_endpoints e cross join webhook_deliveries c
    where e.status = 'enabled' ${endpointKept} and c.id in (${soonest(sql`d.id`)})`;
}

/**
 * Leases up to `limit` due pending deliveries of enabled endpoints, of the types each receives, at
 * most `perEndpoint` of one endpoint, and answers them. Fair: each endpoint's soonest due come
 * first (every endpoint's first, then every endpoint's second, …), so a backlog of one endpoint
 * never fills a claim. PostgreSQL: each endpoint's rows are locked as they are found (`FOR UPDATE
 * SKIP LOCKED` in its LATERAL subquery), so instances claiming at once take different rows, and a
 * row another claim leased meanwhile is checked again as locked (its lease no longer free, it is
 * passed over); the rows locked beyond `limit` are free again at commit, a moment later. SQLite:
 * the write transaction lets one claimer in at a time. Either way no two claims get one row while
 * its lease holds; the lease is set and compared by the database's clock, so instances whose
 * clocks disagree never cut each other's leases short.
 */
export async function claimDueDeliveries(trx: Kysely<Database>, query: ClaimQuery): Promise<ClaimedDelivery[]> {
  return claimStatement(trx, query).execute();
}

/** The claim's statement (its query plan is tested). */
export function claimStatement(trx: Kysely<Database>, query: ClaimQuery) {
  const due = duePerEndpoint(trx, { ...query, perEndpoint: Math.min(query.perEndpoint, query.limit), unleased: true, lock: true, soonest: true });
  const chosen = sql`select r.id from (
      select c.id, c.next_attempt_at, row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as rank from (${due}) c
    ) r order by r.rank, r.next_attempt_at, r.id limit ${query.limit}`;
  return (
    trx
      .updateTable('webhookDeliveries')
      .set({ leaseOwner: query.owner, leaseUntil: sql<number>`${databaseClockMs(trx)} + ${query.leaseMs}` })
      // PostgreSQL: the chosen ids as one array, made once, each then found by primary key (as `in (…)` the
      // planner may hash them and scan the table for them). SQLite finds each by rowid either way.
      .where(isPostgres(trx) ? sql<boolean>`id = any(array(${chosen}))` : sql<boolean>`id in (${chosen})`)
      .returning(['id', 'endpointId', 'messageId', 'eventType', 'payload', 'attempts'])
  );
}

/**
 * Whether a claim would find anything: a read, so an idle SQLite dispatcher never takes the write
 * lock. The claim's own filter (enabled endpoints not left out, types they receive, no lease), so
 * deliveries a claim would leave never make it run for nothing at every poll; at most one row of
 * each endpoint is read.
 */
export async function anyDeliveryDue(db: Kysely<Database>, filter: DueFilter): Promise<boolean> {
  const { rows } = await anyDueStatement(db, filter).execute(db);
  return rows.length > 0;
}

/** `anyDeliveryDue`'s statement (its query plan is tested). */
export function anyDueStatement(db: Kysely<Database>, filter: DueFilter) {
  const due = duePerEndpoint(db, { ...filter, perEndpoint: 1, unleased: true, lock: false, soonest: false });
  return sql<{ id: number }>`select x.id from (${due}) x limit 1`;
}

/**
 * Deliveries the dispatcher would send now (pending, due, of an enabled endpoint, of a type it
 * receives; in flight or not), counted up to `cap`: a backlog of millions costs no more than `cap`
 * rows of each endpoint.
 */
export async function countDueDeliveries(db: Kysely<Database>, now: number, cap: number): Promise<number> {
  const { rows } = await countDueStatement(db, now, cap).execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** `countDueDeliveries`' statement (its query plan is tested). */
export function countDueStatement(db: Kysely<Database>, now: number, cap: number) {
  const due = duePerEndpoint(db, { now, skipEndpoints: [], perEndpoint: cap, unleased: false, lock: false, soonest: false });
  return sql<{ count: number | string }>`select count(*) as count from (select x.id from (${due}) x limit ${cap}) capped`;
}
