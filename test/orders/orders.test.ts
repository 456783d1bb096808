import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { nextLinkOf, walkPages } from '../helpers/pages.js';
import { assertStoreInvariant, storeInvariantBreaches } from '../helpers/store-invariant.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Order {
  id: number;
  petId: number;
  status: string;
  createdAt: string;
  updatedAt: string;
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the store's orders on ${dialect}`, {}, () => {
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
      t.app.inject({ method: 'POST', url: `/v1/store/orders/${orderId}/${action}`, headers: { ...t.auth, ...(payload === undefined ? {} : json) }, ...(payload === undefined ? {} : { payload }) });
    const getOrder = (id: number) => t.app.inject({ method: 'GET', url: `/v1/store/orders/${id}`, headers: t.auth });
    const getPet = (id: number) => t.app.inject({ method: 'GET', url: `/v1/pets/${id}`, headers: t.auth });
    const storedPet = (id: number) => t.database.db.selectFrom('pets').selectAll().where('id', '=', id).executeTakeFirst();
    const storedOrders = (petId: number) => t.database.db.selectFrom('orders').selectAll().where('petId', '=', petId).orderBy('id').execute();
    const patchPet = (id: number, body: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'PATCH', url: `/v1/pets/${id}`, headers: { ...t.auth, 'content-type': 'application/merge-patch+json', ...headers }, payload: JSON.stringify(body) });
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

    describe('POST /v1/store/orders', () => {
      it('for an available pet > answers 201, the order and its Location, and the pet is pending with a new ETag', async () => {
        const petId = await createPet();
        const before = await getPet(petId);
        t.clock.now = Date.parse('2026-11-26T09:30:00.123Z');
        const response = await place(petId);
        assert.equal(response.statusCode, 201, response.body);
        const order = response.json();
        assert.deepEqual(Object.keys(order).sort(), ['createdAt', 'id', 'petId', 'status', 'updatedAt']);
        assert.deepEqual({ ...order, id: 0 }, { id: 0, petId, status: 'placed', createdAt: '2026-11-26T09:30:00.123Z', updatedAt: '2026-11-26T09:30:00.123Z' });
        assert.ok(Number.isSafeInteger(order.id) && order.id > 0);
        assert.equal(response.headers.location, `/v1/store/orders/${order.id}`);
        const pet = await getPet(petId);
        assert.equal(pet.json().status, 'pending');
        assert.notEqual(pet.headers.etag, before.headers.etag, 'the order changed the pet, so its ETag changed');
        assert.deepEqual((await storedOrders(petId)).map((o) => o.status), ['placed']);
        t.clock.now = Date.now();
      });

      for (const status of ['pending', 'sold']) {
        it(`for ${article(status)} ${status} pet > answers 409 pet_not_available naming the status, and changes nothing`, async () => {
          const petId = await createPet(status);
          const before = await storedPet(petId);
          assertErrorBody(await place(petId), { status: 409, code: 'pet_not_available', message: new RegExp(`pet ${petId} is ${status}`) });
          assert.deepEqual(await storedPet(petId), before);
          assert.deepEqual(await storedOrders(petId), []);
        });
      }

      it('for a pet that already has an open order > answers 409 pet_not_available (it is pending)', async () => {
        const petId = await createPet();
        await placed(petId);
        assertErrorBody(await place(petId), { status: 409, code: 'pet_not_available', message: /is pending/ });
        assert.equal((await storedOrders(petId)).length, 1);
      });

      it('for a pet that does not exist > answers 404 pet_not_found', async () => {
        assertErrorBody(await place(987654321), { status: 404, code: 'pet_not_found', message: /no pet has id 987654321/ });
      });

      it('ids > grow and are never reused', async () => {
        const first = await placed(await createPet());
        const second = await placed(await createPet());
        assert.ok(second.id > first.id);
      });

      for (const [name, payload, field] of [
        ['petId as a string', { petId: '5' }, /body\.petId must be an integer/],
        ['petId null', { petId: null }, /body\.petId/],
        ['petId 1.5', { petId: 1.5 }, /body\.petId must be an integer/],
        ['petId 0', { petId: 0 }, /body\.petId must be at least 1/],
        ['no petId', {}, /petId/],
        ['an id', { petId: 1, id: 9 }, /body\.id/],
        ['a status', { petId: 1, status: 'approved' }, /body\.status/],
        ['an array', [1], /body/],
      ] as const) {
        it(`with ${name} > answers 400 validation_failed`, async () => {
          const response = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: JSON.stringify(payload) });
          assertErrorBody(response, { status: 400, code: 'validation_failed', message: field });
        });
      }

      it('with a petId beyond 2^53−1 > answers 400 malformed_json rather than rounding it', async () => {
        const response = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: '{"petId":9007199254740993}' });
        assertErrorBody(response, { status: 400, code: 'malformed_json' });
      });

      it('without a key > answers 401', async () => {
        const response = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: json, payload: { petId: 1 } });
        assertErrorBody(response, { status: 401, code: 'unauthorized' });
      });
    });

    describe('GET /v1/store/orders/{orderId}', () => {
      it('an existing order > answers 200 and the order', async () => {
        const order = await placed(await createPet());
        const response = await getOrder(order.id);
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json(), order);
        assert.match(order.createdAt, ISO_UTC);
      });

      it('an unknown id > answers 404 order_not_found', async () => {
        assertErrorBody(await getOrder(987654321), { status: 404, code: 'order_not_found', message: /no order has id 987654321/ });
      });

      it('a malformed id or a query parameter > answers 400', async () => {
        assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/store/orders/abc', headers: t.auth }), { status: 400, code: 'validation_failed', message: /orderId/ });
        assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/store/orders/1?x=1', headers: t.auth }), { status: 400, code: 'validation_failed' });
      });
    });

    describe('actions', () => {
      // Every action from every status: the result the state machine of the README promises.
      const EXPECTED: Record<string, Record<string, { order: string; pet: string } | 'conflict'>> = {
        placed: { approve: { order: 'approved', pet: 'pending' }, deliver: 'conflict', cancel: { order: 'cancelled', pet: 'available' } },
        approved: { approve: 'conflict', deliver: { order: 'delivered', pet: 'sold' }, cancel: { order: 'cancelled', pet: 'available' } },
        delivered: { approve: 'conflict', deliver: 'conflict', cancel: 'conflict' },
        cancelled: { approve: 'conflict', deliver: 'conflict', cancel: 'conflict' },
      };
      for (const [from, actions] of Object.entries(EXPECTED)) {
        for (const [action, expected] of Object.entries(actions)) {
          if (expected === 'conflict') {
            it(`${action} on ${article(from)} ${from} order > answers 409 order_state_conflict naming ${from}, and changes nothing`, async () => {
              const order = await orderIn(from);
              const petBefore = await storedPet(order.petId);
              const { message } = assertErrorBody(await act(order.id, action), { status: 409, code: 'order_state_conflict' });
              // Written out, so the grammar is checked too ("an approved order", not "a approved").
              const applies = { approve: 'a placed order', deliver: 'an approved order', cancel: 'a placed or approved order' }[action];
              assert.equal(message, `order ${order.id} is ${from}; ${action} applies only to ${applies}`);
              assert.deepEqual((await getOrder(order.id)).json(), order);
              assert.deepEqual(await storedPet(order.petId), petBefore);
            });
          } else {
            it(`${action} on ${article(from)} ${from} order > answers 200, the order ${expected.order}, and the pet ${expected.pet}`, async () => {
              const order = await orderIn(from);
              const petBefore = (await storedPet(order.petId))!;
              t.clock.now += 60_000;
              const response = await act(order.id, action);
              assert.equal(response.statusCode, 200, response.body);
              const changed = response.json();
              assert.deepEqual(changed, { ...order, status: expected.order, updatedAt: new Date(t.clock.now).toISOString() });
              assert.deepEqual((await getOrder(order.id)).json(), changed);
              const petAfter = (await storedPet(order.petId))!;
              assert.equal(petAfter.status, expected.pet);
              // The pet's version (its ETag) moves exactly when its status does.
              assert.equal(petAfter.version, petBefore.version + (petAfter.status === petBefore.status ? 0 : 1));
              await assertStoreInvariant(t.database.db);
            });
          }
        }
      }

      it('on an unknown order > answers 404 order_not_found', async () => {
        for (const action of ['approve', 'deliver', 'cancel']) assertErrorBody(await act(987654321, action), { status: 404, code: 'order_not_found' });
      });

      it('with an empty JSON object as body > is accepted', async () => {
        const order = await placed(await createPet());
        assert.equal((await act(order.id, 'approve', '{}')).statusCode, 200);
      });

      it('with a body that has fields > answers 400 naming them, and changes nothing', async () => {
        const order = await placed(await createPet());
        assertErrorBody(await act(order.id, 'cancel', '{"reason":"changed my mind"}'), { status: 400, code: 'validation_failed', message: /body\.reason is not accepted/ });
        assertErrorBody(await act(order.id, 'cancel', '[]'), { status: 400, code: 'validation_failed', message: /takes no body/ });
        assert.equal((await getOrder(order.id)).json().status, 'placed');
      });

      it('a method the path does not take > answers 405 with Allow', async () => {
        const response = await t.app.inject({ method: 'DELETE', url: '/v1/store/orders/1', headers: t.auth });
        assertErrorBody(response, { status: 405, code: 'method_not_allowed' });
        assert.equal(response.headers.allow, 'GET, HEAD');
        assert.equal((await t.app.inject({ method: 'GET', url: '/v1/store/orders/1/cancel', headers: t.auth })).headers.allow, 'POST');
      });

      it('an unknown action > answers 404 route_not_found', async () => {
        const order = await placed(await createPet());
        assertErrorBody(await act(order.id, 'refund'), { status: 404, code: 'route_not_found' });
      });
    });

    describe('pets held by orders', () => {
      it('PATCH of the status while an order is placed or approved > answers 409 pet_has_open_order and changes nothing', async () => {
        for (const status of ['placed', 'approved']) {
          const order = await orderIn(status);
          const before = await storedPet(order.petId);
          for (const newStatus of ['available', 'sold']) {
            assertErrorBody(await patchPet(order.petId, { status: newStatus }), { status: 409, code: 'pet_has_open_order', message: new RegExp(`pet ${order.petId} has an open order ${order.id} \\(${status}\\)`) });
          }
          assert.deepEqual(await storedPet(order.petId), before);
        }
      });

      it('PATCH of name and category, or of the status it already has, while an order is open > answers 200', async () => {
        const order = await orderIn('placed');
        const response = await patchPet(order.petId, { name: 'Rex II', categoryId: 4, status: 'pending' });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { id: order.petId, name: 'Rex II', categoryId: 4, status: 'pending' });
        await assertStoreInvariant(t.database.db);
      });

      it('PATCH of the status with a stale If-Match while an order is open > answers 412 (the precondition first)', async () => {
        const petId = await createPet();
        const etag = String((await getPet(petId)).headers.etag);
        await placed(petId);
        assertErrorBody(await patchPet(petId, { status: 'sold' }, { 'if-match': etag }), { status: 412, code: 'precondition_failed' });
      });

      it('DELETE while an order is open > answers 409 pet_has_open_order and the pet stays', async () => {
        const order = await orderIn('approved');
        assertErrorBody(await deletePet(order.petId), { status: 409, code: 'pet_has_open_order', message: /cannot be removed/ });
        assert.equal((await getPet(order.petId)).statusCode, 200);
      });

      it('after a cancel > the pet may change status and be removed again', async () => {
        const order = await orderIn('cancelled');
        assert.equal((await patchPet(order.petId, { status: 'sold' })).statusCode, 200);
        assert.equal((await deletePet(order.petId)).statusCode, 204);
      });

      it('after a delivery > the status stays sold (409 pet_sold_by_order) but the pet may be removed, and its order stays readable', async () => {
        const order = await orderIn('delivered');
        assertErrorBody(await patchPet(order.petId, { status: 'available' }), { status: 409, code: 'pet_sold_by_order', message: new RegExp(`sold by order ${order.id}`) });
        assert.equal((await patchPet(order.petId, { name: 'Sold Rex', status: 'sold' })).statusCode, 200);
        assert.equal((await deletePet(order.petId)).statusCode, 204);
        const read = await getOrder(order.id);
        assert.equal(read.statusCode, 200);
        assert.equal(read.json().petId, order.petId);
        assertErrorBody(await place(order.petId), { status: 404, code: 'pet_not_found' });
        await assertStoreInvariant(t.database.db);
      });

      it('a pet with no order > still takes any status and can be removed', async () => {
        const petId = await createPet();
        assert.equal((await patchPet(petId, { status: 'pending' })).statusCode, 200);
        assert.equal((await patchPet(petId, { status: 'available' })).statusCode, 200);
        assert.equal((await deletePet(petId)).statusCode, 204);
      });
    });

    describe('GET /v1/store/orders', () => {
      it('with filters > answers only matching orders, ascending, and pages through Link until none', async () => {
        const petId = await createPet();
        const orders: Order[] = [];
        // Three orders of one pet: two cancelled, then one open.
        for (let i = 0; i < 3; i++) {
          const order = await placed(petId);
          orders.push(order);
          if (i < 2) assert.equal((await act(order.id, 'cancel')).statusCode, 200);
        }
        const { items, pages } = await walkPages<Order>(t.app, t.auth, `/v1/store/orders?petId=${petId}&limit=1`);
        assert.deepEqual(items.map((o) => o.id), orders.map((o) => o.id));
        assert.equal(pages, 3);
        const cancelled = await t.app.inject({ method: 'GET', url: `/v1/store/orders?petId=${petId}&status=cancelled`, headers: t.auth });
        assert.deepEqual(cancelled.json().map((o: Order) => o.id), orders.slice(0, 2).map((o) => o.id));
        assert.equal(nextLinkOf(cancelled.headers.link), undefined);
        const link = nextLinkOf((await t.app.inject({ method: 'GET', url: `/v1/store/orders?status=cancelled&petId=${petId}&limit=1`, headers: t.auth })).headers.link);
        assert.match(link!, new RegExp(`^/v1/store/orders\\?limit=1&status=cancelled&petId=${petId}&cursor=[A-Za-z0-9_-]+$`));
      });

      it('without filters > answers at most 20 orders, every one of them, in ascending id order', async () => {
        const response = await t.app.inject({ method: 'GET', url: '/v1/store/orders', headers: t.auth });
        assert.equal(response.statusCode, 200);
        const ids = response.json().map((o: Order) => o.id);
        assert.ok(ids.length <= 20);
        assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
        const { items } = await walkPages<Order>(t.app, t.auth, '/v1/store/orders?limit=100');
        assert.equal(items.length, await t.database.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)));
      });

      it('a cursor with other filters, or a cursor of the pets listing > answers 400 invalid_cursor', async () => {
        const petId = await createPet();
        for (let i = 0; i < 2; i++) await act((await placed(petId)).id, 'cancel');
        const link = nextLinkOf((await t.app.inject({ method: 'GET', url: `/v1/store/orders?petId=${petId}&limit=1`, headers: t.auth })).headers.link)!;
        const cursor = new URL(link, 'http://x').searchParams.get('cursor')!;
        assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/store/orders?petId=${petId}&status=placed&cursor=${cursor}`, headers: t.auth }), { status: 400, code: 'invalid_cursor', message: /other filters/ });
        await createPet();
        await createPet();
        const petsLink = nextLinkOf((await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: t.auth })).headers.link)!;
        const petsCursor = new URL(petsLink, 'http://x').searchParams.get('cursor')!;
        assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/store/orders?cursor=${petsCursor}`, headers: t.auth }), { status: 400, code: 'invalid_cursor', message: /not a cursor this service made/ });
      });

      for (const query of ['limit=0', 'limit=101', 'limit=1e1', 'status=sold', 'petId=0', 'petId=abc', 'petId=1&petId=2', 'name=Rex', 'cursor=']) {
        it(`with ${query} > answers 400 validation_failed`, async () => {
          assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/store/orders?${query}`, headers: t.auth }), { status: 400, code: 'validation_failed' });
        });
      }
    });

    describe('concurrent requests in one process', () => {
      it('30 orders for one pet at once > exactly one 201, the others 409 pet_not_available', async () => {
        const petId = await createPet();
        const answers = await Promise.all(Array.from({ length: 30 }, () => place(petId)));
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, ...Array(29).fill(409)]);
        for (const answer of answers.filter((a) => a.statusCode === 409)) assertErrorBody(answer, { status: 409, code: 'pet_not_available' });
        assert.equal((await storedOrders(petId)).length, 1);
        await assertStoreInvariant(t.database.db);
      });

      it('cancels racing delivers on one approved order > exactly one 200', async () => {
        const order = await orderIn('approved');
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => act(order.id, i % 2 ? 'cancel' : 'deliver')));
        const won = answers.filter((a) => a.statusCode === 200);
        assert.equal(won.length, 1);
        assert.ok(answers.every((a) => a.statusCode === 200 || a.json().code === 'order_state_conflict'));
        const expectedPet = won[0]!.json().status === 'delivered' ? 'sold' : 'available';
        assert.equal((await storedPet(order.petId))!.status, expectedPet);
        await assertStoreInvariant(t.database.db);
      });

      it('mixed random actions on a few pets > no 5xx, only documented answers, and the invariant holds', async () => {
        const answers = await mixedActions(t, 4, 200);
        assert.deepEqual(answers.filter((status) => status >= 500), []);
        await assertStoreInvariant(t.database.db);
      });
    });

    describe('the invariant check', () => {
      it('on rows that disagree > reports each breach', async () => {
        const petId = await createPet();
        const soldId = await createPet('sold');
        const at = Date.now();
        // One statement each: on PostgreSQL an order's id comes from its transaction (one order per transaction).
        await t.database.db.insertInto('orders').values({ petId, status: 'placed', createdAt: at, updatedAt: at }).execute();
        await t.database.db.insertInto('orders').values({ petId: soldId, status: 'approved', createdAt: at, updatedAt: at }).execute();
        const breaches = await storeInvariantBreaches(t.database.db);
        assert.ok(breaches.some((b) => b.startsWith(`pet ${petId} is available but its order`)), breaches.join('\n'));
        assert.ok(breaches.some((b) => b.startsWith(`pet ${soldId} is sold but its order`)), breaches.join('\n'));
        // Put right again, so the other tests' checks see a consistent store.
        await t.database.db.deleteFrom('orders').where('petId', 'in', [petId, soldId]).execute();
        assert.deepEqual(await storeInvariantBreaches(t.database.db), []);
      });
    });
  });
}

/**
 * `requests` random requests at once over `petCount` new pets: orders, the three actions on
 * known orders, PATCHes of status and DELETEs. Answers the statuses; asserts each is one the
 * operation documents.
 */
async function mixedActions(t: TestApp, petCount: number, requests: number): Promise<number[]> {
  const json = { 'content-type': 'application/json' };
  const pets: number[] = [];
  for (let i = 0; i < petCount; i++) {
    pets.push((await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: `Mixed ${i}`, categoryId: 1 } })).json().id);
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
      const response = await t.app.inject({ method: 'POST', url: `/v1/store/orders/${pick(orders)}/${pick(['approve', 'deliver', 'cancel'])}`, headers: t.auth });
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
