/**
 * The store's orders: placing one (POST /v1/store/orders) and reading it back (GET /v1/store/orders/{orderId}).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { article, ISO_UTC, ordersSuite } from './orders.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the store's orders on ${dialect}`, {}, () => {
    let t: TestApp;
    const { json, createPet, place, placed, getOrder, getPet, storedPet, storedOrders } = ordersSuite(dialect, (ready) => ({ t } = ready));

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
        assert.deepEqual(
          (await storedOrders(petId)).map((o) => o.status),
          ['placed'],
        );
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
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/store/orders',
          headers: { ...t.auth, ...json },
          payload: '{"petId":9007199254740993}',
        });
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
        assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/store/orders/abc', headers: t.auth }), {
          status: 400,
          code: 'validation_failed',
          message: /orderId/,
        });
        assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/store/orders/1?x=1', headers: t.auth }), { status: 400, code: 'validation_failed' });
      });
    });
  });
}
