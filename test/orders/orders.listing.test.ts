/**
 * The store's orders: the listing, concurrent requests in one process, and the store invariant check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { nextLinkOf, walkPages } from '../helpers/pages.js';
import { assertStoreInvariant, storeInvariantBreaches } from '../helpers/store-invariant.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { mixedActions, type Order, ordersSuite } from './orders.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the store's orders on ${dialect}`, {}, () => {
    let t: TestApp;
    const { createPet, place, placed, act, storedPet, storedOrders, orderIn } = ordersSuite(dialect, (ready) => ({ t } = ready));

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
        assert.deepEqual(
          items.map((o) => o.id),
          orders.map((o) => o.id),
        );
        assert.equal(pages, 3);
        const cancelled = await t.app.inject({ method: 'GET', url: `/v1/store/orders?petId=${petId}&status=cancelled`, headers: t.auth });
        assert.deepEqual(
          cancelled.json().map((o: Order) => o.id),
          orders.slice(0, 2).map((o) => o.id),
        );
        assert.equal(nextLinkOf(cancelled.headers.link), undefined);
        const link = nextLinkOf(
          (await t.app.inject({ method: 'GET', url: `/v1/store/orders?status=cancelled&petId=${petId}&limit=1`, headers: t.auth })).headers.link,
        );
        assert.match(link!, new RegExp(`^/v1/store/orders\\?limit=1&status=cancelled&petId=${petId}&cursor=[A-Za-z0-9_-]+$`));
      });

      it('without filters > answers at most 20 orders, every one of them, in ascending id order', async () => {
        const response = await t.app.inject({ method: 'GET', url: '/v1/store/orders', headers: t.auth });
        assert.equal(response.statusCode, 200);
        const ids = response.json().map((o: Order) => o.id);
        assert.ok(ids.length <= 20);
        assert.deepEqual(
          ids,
          [...ids].sort((a: number, b: number) => a - b),
        );
        const { items } = await walkPages<Order>(t.app, t.auth, '/v1/store/orders?limit=100');
        assert.equal(
          items.length,
          await t.database.db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.n)),
        );
      });

      it('a cursor with other filters, or a cursor of the pets listing > answers 400 invalid_cursor', async () => {
        const petId = await createPet();
        for (let i = 0; i < 2; i++) await act((await placed(petId)).id, 'cancel');
        const link = nextLinkOf((await t.app.inject({ method: 'GET', url: `/v1/store/orders?petId=${petId}&limit=1`, headers: t.auth })).headers.link)!;
        const cursor = new URL(link, 'http://x').searchParams.get('cursor')!;
        assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/store/orders?petId=${petId}&status=placed&cursor=${cursor}`, headers: t.auth }), {
          status: 400,
          code: 'invalid_cursor',
          message: /other filters/,
        });
        await createPet();
        await createPet();
        const petsLink = nextLinkOf((await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: t.auth })).headers.link)!;
        const petsCursor = new URL(petsLink, 'http://x').searchParams.get('cursor')!;
        assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/store/orders?cursor=${petsCursor}`, headers: t.auth }), {
          status: 400,
          code: 'invalid_cursor',
          message: /not a cursor this service made/,
        });
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
        assert.deepEqual(
          answers.filter((status) => status >= 500),
          [],
        );
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
        assert.ok(
          breaches.some((b) => b.startsWith(`pet ${petId} is available but its order`)),
          breaches.join('\n'),
        );
        assert.ok(
          breaches.some((b) => b.startsWith(`pet ${soldId} is sold but its order`)),
          breaches.join('\n'),
        );
        // Put right again, so the other tests' checks see a consistent store.
        await t.database.db.deleteFrom('orders').where('petId', 'in', [petId, soldId]).execute();
        assert.deepEqual(await storeInvariantBreaches(t.database.db), []);
      });
    });
  });
}
