/**
 * The store's invariant, checked against what is stored: every pet's status agrees with its
 * orders. For each pet: at most one open (placed or approved) order, and then the pet is
 * `pending`; a pet with a delivered order is `sold`; and at most one order that is not cancelled
 * (a sold pet is never ordered again). Every open order's pet exists. Run it after every race.
 */
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** Every breach of the invariant, described; empty when it holds. */
export async function storeInvariantBreaches(db: Kysely<Database>): Promise<string[]> {
  const pets = await db.selectFrom('pets').select(['id', 'status']).execute();
  const orders = await db.selectFrom('orders').select(['id', 'petId', 'status']).orderBy('id').execute();
  const statusOf = new Map(pets.map((pet) => [pet.id, pet.status]));
  const breaches: string[] = [];
  const holding = new Map<number, { id: number; status: string }[]>();
  for (const order of orders) {
    if (order.status === 'cancelled') continue;
    holding.set(order.petId, [...(holding.get(order.petId) ?? []), order]);
    if ((order.status === 'placed' || order.status === 'approved') && !statusOf.has(order.petId)) {
      breaches.push(`order ${order.id} is ${order.status} but its pet ${order.petId} does not exist`);
    }
  }
  for (const [petId, held] of holding) {
    const status = statusOf.get(petId);
    if (held.length > 1) breaches.push(`pet ${petId} has ${held.length} orders that are not cancelled: ${JSON.stringify(held)}`);
    for (const order of held) {
      if (status === undefined) continue;
      const expected = order.status === 'delivered' ? 'sold' : 'pending';
      if (status !== expected) breaches.push(`pet ${petId} is ${status} but its order ${order.id} is ${order.status} (the pet should be ${expected})`);
    }
  }
  return breaches;
}

export async function assertStoreInvariant(db: Kysely<Database>): Promise<void> {
  assert.deepEqual(await storeInvariantBreaches(db), [], 'every pet status agrees with its orders');
}
