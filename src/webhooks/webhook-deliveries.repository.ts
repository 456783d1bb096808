/** SQL of the deliveries' routes: an endpoint's deliveries with their last attempts, a retry by hand, a test message. */
import { type Kysely, sql } from 'kysely';
import type { Database, NewWebhookDeliveryRow, WebhookAttemptRow, WebhookDeliveryRow, WebhookDeliveryState } from '../db/database.js';
import { databaseClockMs, idIn, idListParameter } from '../db/dialect.js';
import { firstRows, pageLimit } from '../db/page-limit.js';

export type DeliveryListRow = Omit<WebhookDeliveryRow, 'payload' | 'leaseOwner' | 'leaseUntil'>;
const LISTED_COLUMNS = ['id', 'endpointId', 'messageId', 'eventId', 'eventType', 'state', 'attempts', 'nextAttemptAt', 'createdAt', 'lastAttemptAt'] as const;

export async function endpointExists(db: Kysely<Database>, endpointId: number): Promise<boolean> {
  return (await db.selectFrom('webhookEndpoints').select('id').where('id', '=', endpointId).executeTakeFirst()) !== undefined;
}

/** An endpoint's deliveries with an id below `beforeId` (all when undefined), newest first; only of `eventTypes` when given. */
export async function findDeliveries(
  db: Kysely<Database>,
  query: {
    endpointId: number;
    beforeId: number | undefined;
    state: WebhookDeliveryState | undefined;
    eventTypes?: readonly string[] | undefined;
    limit: number;
  },
): Promise<DeliveryListRow[]> {
  let select = db.selectFrom('webhookDeliveries').select(LISTED_COLUMNS).where('endpointId', '=', query.endpointId);
  if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
  if (query.state !== undefined) select = select.where('state', '=', query.state);
  if (query.eventTypes !== undefined) select = select.where('eventType', 'in', [...query.eventTypes]);
  return firstRows(await select.orderBy('id', 'desc').limit(pageLimit(query.limit)).execute(), query.limit);
}

/** The last `perDelivery` attempts of each delivery, newest first, in one statement (a window over the index (delivery_id, id)). */
export async function findLastAttempts(db: Kysely<Database>, deliveryIds: readonly number[], perDelivery: number): Promise<Map<number, WebhookAttemptRow[]>> {
  const lists = new Map<number, WebhookAttemptRow[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return lists;
  const ranked = db
    .selectFrom('webhookAttempts')
    .selectAll()
    .select(sql<number>`row_number() over (partition by ${sql.ref('delivery_id')} order by ${sql.ref('id')} desc)`.as('rank'))
    .where(idIn(db, idListParameter(db, deliveryIds), 'delivery_id'));
  const rows = await db.selectFrom(ranked.as('ranked')).selectAll().where('rank', '<=', perDelivery).orderBy('deliveryId').orderBy('id', 'desc').execute();
  for (const row of rows) {
    const { rank, ...attempt } = row;
    if (rank <= perDelivery) lists.get(attempt.deliveryId)?.push(attempt);
  }
  return lists;
}

/** The event type of one of the endpoint's deliveries; undefined when the endpoint has no such delivery. */
export async function findDeliveryEventType(db: Kysely<Database>, endpointId: number, deliveryId: number): Promise<string | undefined> {
  const row = await db.selectFrom('webhookDeliveries').select('eventType').where('id', '=', deliveryId).where('endpointId', '=', endpointId).executeTakeFirst();
  return row?.eventType;
}

/**
 * Makes a delivery due now, whatever its state (a retry by hand), unless an attempt of it is in
 * flight: a lease held past the database's clock (which sets and compares the dispatcher's leases)
 * leaves the row as it is, in the statement itself, and answers undefined. The attempt's record would overwrite the
 * retry otherwise.
 */
export async function makeDeliveryDue(db: Kysely<Database>, endpointId: number, deliveryId: number, now: number): Promise<DeliveryListRow | undefined> {
  return (
    db
      .updateTable('webhookDeliveries')
      // A lease that ended is dropped: an attempt that outlived it can no longer record over the retry.
      .set({ state: 'pending', nextAttemptAt: now, leaseOwner: null, leaseUntil: null })
      .where('id', '=', deliveryId)
      .where('endpointId', '=', endpointId)
      .where((eb) => eb.or([eb('leaseOwner', 'is', null), eb('leaseUntil', 'is', null), eb('leaseUntil', '<', databaseClockMs(db))]))
      .returning(LISTED_COLUMNS)
      .executeTakeFirst()
  );
}

export async function insertDelivery(db: Kysely<Database>, row: NewWebhookDeliveryRow): Promise<DeliveryListRow> {
  return db.insertInto('webhookDeliveries').values(row).returning(LISTED_COLUMNS).executeTakeFirstOrThrow();
}
