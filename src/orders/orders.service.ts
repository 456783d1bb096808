/**
 * The store's use cases: place an order, move it through its states, read and list orders. No
 * HTTP here. Every change that touches a pet's status and its orders is one transaction that
 * locks the pet first (pets.repository `lockPetById`); the pets service does the same when it
 * changes a pet's status or removes it. One lock order means no deadlocks, and a transaction
 * holding the pet sees every order the ones before it committed, so the pet's status and its
 * orders always agree. The rule on what an order does to its pet is `orders.state-machine.ts`.
 */
import type { Kysely } from 'kysely';
import type { Database, OrderRow } from '../db/database.js';
import { RECORDS_EVENTS } from '../db/dialect.js';
import { retriedWriteTransaction } from '../db/retry-conflicts.js';
import { AppError } from '../errors.js';
import { lockPetById, updatePetRow } from '../pets/pets.repository.js';
import { orderCursors } from './orders.cursor.js';
import { findOrderById, findOrderHoldingPet, findOrdersAfter, insertOrder, updateOrderStatus } from './orders.repository.js';
import type { ListOrdersQuery, NewOrder, Order } from './orders.schemas.js';
import { appliesOnlyTo, isOpen, ORDER_TRANSITIONS, type OrderAction, PLACEMENT } from './orders.state-machine.js';

/** Places an order for an available pet, which becomes pending in the same transaction. */
export async function placeOrder(db: Kysely<Database>, newOrder: NewOrder, now: () => number = Date.now): Promise<Order> {
  const { petId } = newOrder;
  return retriedWriteTransaction(
    db,
    async (trx) => {
      const pet = await lockPetById(trx, petId);
      if (!pet) throw new AppError('pet_not_found', `no pet has id ${petId}`);
      if (pet.status !== PLACEMENT.petFrom) {
        throw new AppError('pet_not_available', `pet ${petId} is ${pet.status}; only an ${PLACEMENT.petFrom} pet can be ordered`);
      }
      await updatePetRow(trx, petId, { status: PLACEMENT.petTo });
      const at = now();
      return toOrder(await insertOrder(trx, { petId, status: PLACEMENT.order, createdAt: at, updatedAt: at }));
    },
    RECORDS_EVENTS,
  );
}

/** Applies `action` to the order, and to its pet what the state machine says, in one transaction. */
export async function transitionOrder(db: Kysely<Database>, id: number, action: OrderAction, now: () => number = Date.now): Promise<Order> {
  const { from, to, pet } = ORDER_TRANSITIONS[action];
  return retriedWriteTransaction(
    db,
    async (trx) => {
      // An order's pet never changes, so this read (before any lock) names the pet to lock.
      const order = await findOrderById(trx, id);
      if (!order) throw orderNotFound(id);
      await lockPetById(trx, order.petId);
      // Read again under the pet's lock: a transition committed meanwhile is seen here.
      const changed = await updateOrderStatus(trx, id, { from, to, updatedAt: now() });
      if (!changed) {
        const current = (await findOrderById(trx, id)) ?? order;
        throw new AppError('order_state_conflict', `order ${id} is ${current.status}; ${appliesOnlyTo(action)}`);
      }
      if (pet !== undefined && !(await updatePetRow(trx, order.petId, { status: pet }))) {
        // Cannot happen while removing a pet with an open order is refused; rolls everything back if it does.
        throw new Error(`order ${id} was ${order.status} but its pet ${order.petId} does not exist`);
      }
      return toOrder(changed);
    },
    RECORDS_EVENTS,
  );
}

export async function getOrder(db: Kysely<Database>, id: number): Promise<Order> {
  const row = await findOrderById(db, id);
  if (!row) throw orderNotFound(id);
  return toOrder(row);
}

export interface OrderPage {
  orders: Order[];
  /** Present when more orders follow this page. */
  nextCursor?: string;
}

/** One page of orders in ascending id order, after the cursor's position, under the filters given. */
export async function listOrders(db: Kysely<Database>, query: ListOrdersQuery & { limit: number }, cursorSecret: string): Promise<OrderPage> {
  const filter = { status: query.status, petId: query.petId };
  const cursors = orderCursors(cursorSecret);
  const afterId = query.cursor === undefined ? 0 : cursors.decode(query.cursor, filter);
  // One extra row tells whether a next page exists without a second query.
  const rows = await findOrdersAfter(db, { afterId, filter, limit: query.limit + 1 });
  const orders = rows.slice(0, query.limit).map(toOrder);
  const last = orders.at(-1);
  return rows.length > query.limit && last ? { orders, nextCursor: cursors.encode(last.id, filter) } : { orders };
}

/**
 * Refuses a change of the pet's status, or its removal, while an order holds the pet. Called by
 * the pets service inside its transaction, after it locked the pet. An open order holds both the
 * status and the pet; a delivered order holds the status (`sold`) for good, but the pet may go.
 */
export async function refuseWhileOrderHoldsPet(trx: Kysely<Database>, petId: number, change: 'status' | 'removal'): Promise<void> {
  const order = await findOrderHoldingPet(trx, petId);
  if (!order) return;
  if (isOpen(order.status)) {
    const what = change === 'status' ? 'its status follows the order' : 'it cannot be removed';
    throw new AppError('pet_has_open_order', `pet ${petId} has an open order ${order.id} (${order.status}): ${what}; deliver or cancel the order first`);
  }
  if (change === 'status') {
    throw new AppError('pet_sold_by_order', `pet ${petId} was sold by order ${order.id} (${order.status}): its status stays sold`);
  }
}

function orderNotFound(id: number): AppError {
  return new AppError('order_not_found', `no order has id ${id}`);
}

/** An order row as the API shows it (the events feed turns its stored rows with it too). */
export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    petId: row.petId,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
