/**
 * The store's orders: their actions (approve, deliver, cancel) and the pets they hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { assertStoreInvariant } from '../helpers/store-invariant.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { article, ordersSuite } from './orders.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the store's orders on ${dialect}`, {}, () => {
    let t: TestApp;
    const { createPet, place, placed, act, getOrder, getPet, storedPet, patchPet, deletePet, orderIn } = ordersSuite(dialect, (ready) => ({ t } = ready));

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
        assertErrorBody(await act(order.id, 'cancel', '{"reason":"changed my mind"}'), {
          status: 400,
          code: 'validation_failed',
          message: /body\.reason is not accepted/,
        });
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
            assertErrorBody(await patchPet(order.petId, { status: newStatus }), {
              status: 409,
              code: 'pet_has_open_order',
              message: new RegExp(`pet ${order.petId} has an open order ${order.id} \\(${status}\\)`),
            });
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
        assertErrorBody(await patchPet(order.petId, { status: 'available' }), {
          status: 409,
          code: 'pet_sold_by_order',
          message: new RegExp(`sold by order ${order.id}`),
        });
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
  });
}
