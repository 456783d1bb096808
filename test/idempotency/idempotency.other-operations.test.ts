/**
 * Idempotency-Key beyond creating pets: PATCH and DELETE of a pet, the store's orders, its metrics and the purge of expired keys.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purgeExpiredIdempotencyKeys } from '../../src/idempotency/idempotency.service.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { sampleValue } from '../helpers/metrics.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { HOUR, idempotencySuite } from './idempotency.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `Idempotency-Key on ${dialect}`, {}, () => {
    let t: TestApp;
    const { json, newKey, uniqueName, create, petsNamed, storedKey, createdPet } = idempotencySuite(dialect, (ready) => ({ t } = ready));

    describe('PATCH and DELETE of a pet', () => {
      it('PATCH /v1/pets/{id} > refused for a stale If-Match > the 412 is not kept: the same key with the current ETag changes the pet', async () => {
        const pet = await createdPet();
        const key = newKey();
        const patch = (ifMatch: string) =>
          t.app.inject({
            method: 'PATCH',
            url: `/v1/pets/${pet.id}`,
            headers: { ...t.auth, ...json, 'if-match': ifMatch, 'idempotency-key': key },
            payload: '{"status":"sold"}',
          });
        const first = await patch(`"${pet.id}-99"`);
        assertErrorBody(first, { status: 412, code: 'precondition_failed', message: /changed/ });
        assert.deepEqual(await storedKey(key), [], 'the key is released, as after a 400');
        // The documented recovery: read it again, then retry, keeping the key.
        const current = await t.app.inject({ method: 'GET', url: `/v1/pets/${pet.id}`, headers: t.auth });
        const retry = await patch(String(current.headers.etag));
        assert.equal(retry.statusCode, 200, retry.body);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
        assert.equal(retry.json().status, 'sold');
        // That success is kept: the same request again replays it.
        const again = await patch(String(current.headers.etag));
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.equal(again.body, retry.body);
      });

      it('DELETE /v1/pets/{id} > refused for a stale If-Match > the 412 is not kept: the same key with * removes the pet', async () => {
        const pet = await createdPet();
        const key = newKey();
        const remove = (ifMatch: string) =>
          t.app.inject({ method: 'DELETE', url: `/v1/pets/${pet.id}`, headers: { ...t.auth, 'if-match': ifMatch, 'idempotency-key': key } });
        assertErrorBody(await remove(`"${pet.id}-99"`), { status: 412, code: 'precondition_failed', message: /changed/ });
        assert.deepEqual(await storedKey(key), []);
        const retry = await remove('*');
        assert.equal(retry.statusCode, 204, retry.body);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
        assert.deepEqual(await petsNamed(pet.name), []);
      });

      it('PATCH /v1/pets/{id} > retried > replays the answer with its ETag and changes the pet once', async () => {
        const pet = await createdPet();
        const key = newKey();
        const patch = () =>
          t.app.inject({
            method: 'PATCH',
            url: `/v1/pets/${pet.id}`,
            headers: { ...t.auth, ...json, 'idempotency-key': key },
            payload: '{"status":"pending"}',
          });
        const first = await patch();
        assert.equal(first.statusCode, 200);
        const retry = await patch();
        assert.equal(retry.headers['idempotent-replayed'], 'true');
        assert.equal(retry.headers.etag, first.headers.etag);
        assert.equal(retry.body, first.body);
        const stored = await t.database.db.selectFrom('pets').select('version').where('id', '=', pet.id).executeTakeFirstOrThrow();
        assert.equal(stored.version, 2);
      });

      it('DELETE /v1/pets/{id} > retried > replays 204 instead of 404', async () => {
        const pet = await createdPet();
        const key = newKey();
        const remove = () => t.app.inject({ method: 'DELETE', url: `/v1/pets/${pet.id}`, headers: { ...t.auth, 'idempotency-key': key } });
        assert.equal((await remove()).statusCode, 204);
        const retry = await remove();
        assert.equal(retry.statusCode, 204);
        assert.equal(retry.body, '');
        assert.equal(retry.headers['idempotent-replayed'], 'true');
      });

      it('DELETE /v1/pets/{id} > the same key on another pet > answers 422', async () => {
        const [one, two] = [await createdPet(), await createdPet()];
        const key = newKey();
        assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/pets/${one.id}`, headers: { ...t.auth, 'idempotency-key': key } })).statusCode, 204);
        const other = await t.app.inject({ method: 'DELETE', url: `/v1/pets/${two.id}`, headers: { ...t.auth, 'idempotency-key': key } });
        assertErrorBody(other, { status: 422, code: 'idempotency_key_reused', message: /another request/ });
        assert.equal((await petsNamed(two.name)).length, 1);
      });
    });

    describe("the store's orders", () => {
      it('POST /v1/store/orders > retried > replays 201 with Location and places one order', async () => {
        const pet = await createdPet();
        const key = newKey();
        const place = () =>
          t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json, 'idempotency-key': key }, payload: { petId: pet.id } });
        const first = await place();
        assert.equal(first.statusCode, 201, first.body);
        const retry = await place();
        assert.equal(retry.statusCode, 201);
        assert.equal(retry.headers['idempotent-replayed'], 'true');
        assert.equal(retry.headers.location, first.headers.location);
        assert.equal(retry.body, first.body);
        assert.equal((await t.database.db.selectFrom('orders').selectAll().where('petId', '=', pet.id).execute()).length, 1);
      });

      for (const action of ['approve', 'cancel'] as const) {
        it(`POST /v1/store/orders/{id}/${action} > retried > replays 200 instead of 409 order_state_conflict`, async () => {
          const pet = await createdPet();
          const order = (
            await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pet.id } })
          ).json() as { id: number };
          const key = newKey();
          const act = () => t.app.inject({ method: 'POST', url: `/v1/store/orders/${order.id}/${action}`, headers: { ...t.auth, 'idempotency-key': key } });
          const first = await act();
          assert.equal(first.statusCode, 200, first.body);
          const retry = await act();
          assert.equal(retry.statusCode, 200);
          assert.equal(retry.headers['idempotent-replayed'], 'true');
          assert.equal(retry.body, first.body);
        });
      }

      it('POST /v1/store/orders/{id}/deliver > refused with 409, then retried > replays the 409', async () => {
        const pet = await createdPet();
        const order = (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pet.id } })).json() as {
          id: number;
        };
        const key = newKey();
        const deliver = () => t.app.inject({ method: 'POST', url: `/v1/store/orders/${order.id}/deliver`, headers: { ...t.auth, 'idempotency-key': key } });
        const first = await deliver();
        assertErrorBody(first, { status: 409, code: 'order_state_conflict', message: /placed/ });
        await t.app.inject({ method: 'POST', url: `/v1/store/orders/${order.id}/approve`, headers: t.auth });
        const retry = await deliver();
        assert.equal(retry.statusCode, 409);
        assert.equal(retry.headers['idempotent-replayed'], 'true');
      });
    });

    describe('metrics', () => {
      it('GET /metrics > animal_store_orders > counts the orders of each status as stored', async () => {
        const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
        const stored = async (status: string) =>
          Number(
            (
              await t.database.db
                .selectFrom('orders')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('status', '=', status as 'placed')
                .executeTakeFirstOrThrow()
            ).n,
          );
        const pet = await createdPet();
        const order = (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pet.id } })).json() as {
          id: number;
        };
        await t.app.inject({ method: 'POST', url: `/v1/store/orders/${order.id}/cancel`, headers: t.auth });
        const exposition = await scrape();
        for (const status of ['placed', 'approved', 'delivered', 'cancelled']) {
          assert.equal(sampleValue(exposition, 'animal_store_orders', { status }), await stored(status), status);
        }
        assert.ok((sampleValue(exposition, 'animal_store_orders', { status: 'cancelled' }) ?? 0) >= 1);
      });
    });

    describe('purge', () => {
      it('purgeExpiredIdempotencyKeys > in batches > deletes every expired key and keeps the others', async () => {
        const keys = [newKey(), newKey(), newKey()];
        for (const key of keys) assert.equal((await create(key, { name: uniqueName(), categoryId: 7 })).statusCode, 201);
        const fresh = newKey();
        t.clock.now += 24 * HOUR;
        assert.equal((await create(fresh, { name: uniqueName(), categoryId: 7 })).statusCode, 201);
        const purged = await purgeExpiredIdempotencyKeys(t.database.db, t.clock.now, 2);
        assert.ok(purged >= keys.length, `purged ${purged}`);
        for (const key of keys) assert.deepEqual(await storedKey(key), []);
        assert.equal((await storedKey(fresh)).length, 1);
      });
    });
  });
}
