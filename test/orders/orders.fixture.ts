/**
 * What the suites of the store's orders share: an app per suite, and helpers to make pets and orders and act on them.
 * `ordersSuite(dialect, onReady)` registers the suite's hooks (a fresh app on a fresh database) and
 * answers the helpers its tests share; `onReady` receives the app once it runs.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { DialectName } from '../../src/db/database-url.js';

export const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
export const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export interface Order {
  id: number;
  petId: number;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export function ordersSuite(dialect: DialectName, onReady: (ready: { t: TestApp }) => void) {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(dialect);
  });
  after(() => t.close());

  const json = { 'content-type': 'application/json' };
  const createPet = async (status = 'available') => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: 'Rex', categoryId: 3, status } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as number;
  };
  const place = (petId: unknown) => t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId } });
  const placed = async (petId: number): Promise<Order> => {
    const response = await place(petId);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const act = (orderId: number, action: string, payload?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/store/orders/${orderId}/${action}`,
      headers: { ...t.auth, ...(payload === undefined ? {} : json) },
      ...(payload === undefined ? {} : { payload }),
    });
  const getOrder = (id: number) => t.app.inject({ method: 'GET', url: `/v1/store/orders/${id}`, headers: t.auth });
  const getPet = (id: number) => t.app.inject({ method: 'GET', url: `/v1/pets/${id}`, headers: t.auth });
  const storedPet = (id: number) => t.database.db.selectFrom('pets').selectAll().where('id', '=', id).executeTakeFirst();
  const storedOrders = (petId: number) => t.database.db.selectFrom('orders').selectAll().where('petId', '=', petId).orderBy('id').execute();
  const patchPet = (id: number, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PATCH',
      url: `/v1/pets/${id}`,
      headers: { ...t.auth, 'content-type': 'application/merge-patch+json', ...headers },
      payload: JSON.stringify(body),
    });
  const deletePet = (id: number) => t.app.inject({ method: 'DELETE', url: `/v1/pets/${id}`, headers: t.auth });
  /** An order in the given status, on a pet of its own. */
  const orderIn = async (status: string): Promise<Order> => {
    const order = await placed(await createPet());
    const path = { placed: [], approved: ['approve'], delivered: ['approve', 'deliver'], cancelled: ['cancel'] }[status]!;
    let last = order;
    for (const action of path) {
      const response = await act(order.id, action);
      assert.equal(response.statusCode, 200, response.body);
      last = response.json();
    }
    return last;
  };
  before(() => onReady({ t }));

  return { json, createPet, place, placed, act, getOrder, getPet, storedPet, storedOrders, patchPet, deletePet, orderIn };
}

/**
 * `requests` random requests at once over `petCount` new pets: orders, the three actions on
 * known orders, PATCHes of status and DELETEs. Answers the statuses; asserts each is one the
 * operation documents.
 */
export async function mixedActions(t: TestApp, petCount: number, requests: number): Promise<number[]> {
  const json = { 'content-type': 'application/json' };
  const pets: number[] = [];
  for (let i = 0; i < petCount; i++) {
    pets.push(
      (await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: `Mixed ${i}`, categoryId: 1 } })).json().id,
    );
  }
  const orders: number[] = [];
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
  const one = async (): Promise<number> => {
    const roll = Math.random();
    if (roll < 0.3 || orders.length === 0) {
      const response = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pick(pets) } });
      if (response.statusCode === 201) orders.push(response.json().id);
      assert.ok([201, 404, 409].includes(response.statusCode), response.body);
      return response.statusCode;
    }
    if (roll < 0.85) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/store/orders/${pick(orders)}/${pick(['approve', 'deliver', 'cancel'])}`,
        headers: t.auth,
      });
      assert.ok([200, 409].includes(response.statusCode), response.body);
      return response.statusCode;
    }
    if (roll < 0.97) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/v1/pets/${pick(pets)}`,
        headers: { ...t.auth, 'content-type': 'application/merge-patch+json' },
        payload: JSON.stringify({ status: pick(['available', 'pending', 'sold']) }),
      });
      assert.ok([200, 404, 409].includes(response.statusCode), response.body);
      return response.statusCode;
    }
    const response = await t.app.inject({ method: 'DELETE', url: `/v1/pets/${pick(pets)}`, headers: t.auth });
    assert.ok([204, 404, 409].includes(response.statusCode), response.body);
    return response.statusCode;
  };
  // In waves, so later requests find orders made by earlier ones.
  const statuses: number[] = [];
  for (let wave = 0; wave < 4; wave++) statuses.push(...(await Promise.all(Array.from({ length: requests / 4 }, one))));
  return statuses;
}
