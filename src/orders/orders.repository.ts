/** SQL for the store's orders. Every function takes the database (or a transaction) first. */
import type { Kysely } from 'kysely';
import type { Database, NewOrderRow, OrderRow, OrderStatus } from '../db/database.js';
import { firstRows, pageLimit } from '../db/page-limit.js';

/** Inserts an order; its id comes from the table's own sequence. */
export async function insertOrder(db: Kysely<Database>, row: NewOrderRow): Promise<OrderRow> {
  const { petId, status, createdAt, updatedAt } = row;
  return db.insertInto('orders').values({ petId, status, createdAt, updatedAt }).returningAll().executeTakeFirstOrThrow();
}

export async function findOrderById(db: Kysely<Database>, id: number): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Moves the order to `to` only if its status is still one of `from`, in one statement; answers
 * the order as changed, or undefined when it was not in one of those statuses (or does not exist).
 */
export async function updateOrderStatus(
  db: Kysely<Database>,
  id: number,
  change: { from: readonly OrderStatus[]; to: OrderStatus; updatedAt: number },
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set({ status: change.to, updatedAt: change.updatedAt })
    .where('id', '=', id)
    .where('status', 'in', change.from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The pet's order that is not cancelled, if any: an open one, or the delivered one that sold it.
 * The service keeps at most one per pet (an order needs an available pet, and a pet sold by an
 * order stays sold); the newest is taken all the same.
 */
export async function findOrderHoldingPet(db: Kysely<Database>, petId: number): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('petId', '=', petId).where('status', '!=', 'cancelled').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export interface OrderFilter {
  status?: OrderStatus | undefined;
  petId?: number | undefined;
}

/** Committed orders with an id above `afterId` that pass the filter, in ascending id order (each filter has an index ending in id). */
export async function findOrdersAfter(db: Kysely<Database>, query: { afterId: number; filter: OrderFilter; limit: number }): Promise<OrderRow[]> {
  const { filter } = query;
  let select = db.selectFrom('orders').selectAll().where('id', '>', query.afterId);
  if (filter.status !== undefined) select = select.where('status', '=', filter.status);
  if (filter.petId !== undefined) select = select.where('petId', '=', filter.petId);
  return firstRows(await select.orderBy('id').limit(pageLimit(query.limit)).execute(), query.limit);
}

/** How many orders are in each status (statuses without orders are absent): one grouped query. */
export async function countOrdersByStatus(db: Kysely<Database>): Promise<{ status: OrderStatus; count: number }[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
