import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { IDEMPOTENCY_LEASE_MS, purgeExpiredIdempotencyKeys } from '../../src/idempotency/idempotency.service.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { sampleValue } from '../helpers/metrics.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const HOUR = 3_600_000;

/** A promise and the function that settles it: how a test holds a request at a point and lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `Idempotency-Key on ${dialect}`, {}, () => {
    let t: TestApp;
    /** Requests whose key (the Idempotency-Key) is listed here wait, once reserved, until the gate opens. */
    const held = new Map<string, { reserved: () => void; gate: ReturnType<typeof gate> }>();
    /** Requests whose key is listed here fail with a 500 once they reserved it. */
    const failing = new Set<string>();
    before(async () => {
      t = await createTestApp(dialect, {
        hooks: {
          onIdempotencyKeyReserved: async (request) => {
            if (failing.has(String(request.headers['idempotency-key']))) throw new Error('the handler failed (test)');
            const hold = held.get(String(request.headers['idempotency-key']));
            if (!hold) return;
            // Only the first request to reserve the key is held: any other one must not wait here.
            held.delete(String(request.headers['idempotency-key']));
            hold.reserved();
            await hold.gate.opened;
          },
        },
      });
    });
    after(() => t.close());

    const json = { 'content-type': 'application/json' };
    const newKey = () => `k-${randomUUID()}`;
    const uniqueName = () => `Rex ${randomUUID().slice(0, 8)}`;
    const create = (key: string | undefined, body: unknown, auth = t.auth) =>
      t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...auth, ...json, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload: JSON.stringify(body) });
    const petsNamed = (name: string) => t.database.db.selectFrom('pets').selectAll().where('name', '=', name).execute();
    const storedKey = (key: string) => t.database.db.selectFrom('idempotencyKeys').selectAll().where('idempotencyKey', '=', key).execute();
    const createdPet = async () => {
      const response = await create(undefined, { name: uniqueName(), categoryId: 1 });
      assert.equal(response.statusCode, 201, response.body);
      return response.json() as { id: number; name: string };
    };

    describe('POST /v1/pets', () => {
      it('POST /v1/pets > retried with the same key and body > replays the first answer and makes one animal', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        const first = await create(key, body);
        assert.equal(first.statusCode, 201, first.body);
        assert.equal(first.headers['idempotent-replayed'], undefined);
        const retry = await create(key, body);
        assert.equal(retry.statusCode, 201);
        assert.equal(retry.body, first.body);
        assert.equal(retry.headers.location, first.headers.location);
        assert.equal(retry.headers.etag, first.headers.etag);
        assert.match(String(retry.headers['content-type']), /^application\/json/);
        assert.equal(retry.headers['idempotent-replayed'], 'true');
        assert.equal((await petsNamed(body.name)).length, 1);
      });

      it('POST /v1/pets > the key as a structured-field string and as a bare token > is the same key', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        assert.equal((await create(`"${key}"`, body)).statusCode, 201);
        const retry = await create(key, body);
        assert.equal(retry.headers['idempotent-replayed'], 'true');
        assert.equal((await petsNamed(body.name)).length, 1);
      });

      it('POST /v1/pets > the same key with another body > answers 422 idempotency_key_reused and creates nothing', async () => {
        const key = newKey();
        const name = uniqueName();
        assert.equal((await create(key, { name, categoryId: 7 })).statusCode, 201);
        const other = uniqueName();
        assertErrorBody(await create(key, { name: other, categoryId: 7 }), { status: 422, code: 'idempotency_key_reused', message: /another request/ });
        assert.equal((await petsNamed(other)).length, 0);
      });

      it('PATCH /v1/pets/{id} > with a key used by a create > answers 422 idempotency_key_reused and changes nothing', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        const pet = (await create(key, body)).json() as { id: number };
        const patch = await t.app.inject({
          method: 'PATCH',
          url: `/v1/pets/${pet.id}`,
          headers: { ...t.auth, ...json, 'idempotency-key': key },
          payload: JSON.stringify({ status: 'sold' }),
        });
        assertErrorBody(patch, { status: 422, code: 'idempotency_key_reused', message: /another request/ });
        assert.equal((await petsNamed(body.name))[0]!.status, 'available');
      });

      it('POST /v1/pets > the same key sent with another API key > is another key and creates another animal', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        assert.equal((await create(key, body)).statusCode, 201);
        const other = await issueApiKey(t.database.db, { name: 'other' }, () => t.clock.now);
        const second = await create(key, body, { authorization: `Bearer ${other.key}` });
        assert.equal(second.statusCode, 201);
        assert.equal(second.headers['idempotent-replayed'], undefined);
        assert.equal((await petsNamed(body.name)).length, 2);
      });

      for (const [scenario, value] of [
        ['an empty string', '""'],
        ['256 characters', 'a'.repeat(256)],
        ['a quoted string of 256 characters', `"${'a'.repeat(256)}"`],
        ['a space in a bare token', 'two words'],
        ['two keys', '"one", "two"'],
        ['an unterminated string', '"abc'],
        ['a control character in a string', '"a\tb"'],
      ] as const) {
        it(`POST /v1/pets > with a key of ${scenario} > answers 400 invalid_idempotency_key and creates nothing`, async () => {
          const name = uniqueName();
          assertErrorBody(await create(value, { name, categoryId: 7 }), { status: 400, code: 'invalid_idempotency_key', message: /Idempotency-Key/ });
          assert.equal((await petsNamed(name)).length, 0);
        });
      }

      it('POST /v1/pets > with a key of 255 characters > is accepted', async () => {
        assert.equal((await create('a'.repeat(240) + randomUUID().slice(0, 15), { name: uniqueName(), categoryId: 7 })).statusCode, 201);
      });

      it('POST /v1/pets > a body refused by validation > keeps no key, so the corrected retry runs', async () => {
        const key = newKey();
        const name = uniqueName();
        assertErrorBody(await create(key, { name, categoryId: 'seven' }), { status: 400, code: 'validation_failed', message: /categoryId/ });
        assert.deepEqual(await storedKey(key), []);
        const corrected = await create(key, { name, categoryId: 7 });
        assert.equal(corrected.statusCode, 201);
        assert.equal(corrected.headers['idempotent-replayed'], undefined);
      });

      it('POST /v1/pets > failing with a 5xx after reserving its key > releases the key, so the retry runs', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        failing.add(key);
        assertErrorBody(await create(key, body), { status: 500, code: 'internal_error', message: /internal error/ });
        failing.delete(key);
        assert.deepEqual(await storedKey(key), []);
        const retry = await create(key, body);
        assert.equal(retry.statusCode, 201);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
        assert.equal((await petsNamed(body.name)).length, 1);
      });

      it('POST /v1/pets > refused for a bad API key > keeps no key', async () => {
        const key = newKey();
        const response = await create(key, { name: uniqueName(), categoryId: 7 }, { authorization: 'Bearer nope' });
        assert.equal(response.statusCode, 401);
        assert.deepEqual(await storedKey(key), []);
      });

      it('POST /v1/pets > retried while the first still runs > answers 409 idempotency_key_in_use with Retry-After, then the answer', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        const reserved = gate();
        const hold = { reserved: reserved.open, gate: gate() };
        held.set(key, hold);
        const first = create(key, body);
        await reserved.opened;
        const during = await create(key, body);
        assertErrorBody(during, { status: 409, code: 'idempotency_key_in_use', message: /still running/ });
        assert.equal(during.headers['retry-after'], '1');
        hold.gate.open();
        const answer = await first;
        assert.equal(answer.statusCode, 201);
        const later = await create(key, body);
        assert.equal(later.headers['idempotent-replayed'], 'true');
        assert.equal(later.body, answer.body);
        assert.equal((await petsNamed(body.name)).length, 1);
      });

      it('POST /v1/pets > a key left in progress past its lease (a process died) > is taken over by a retry of the same request', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        const reserved = gate();
        const hold = { reserved: reserved.open, gate: gate() };
        held.set(key, hold);
        const stuck = create(key, body);
        await reserved.opened;
        t.clock.now += IDEMPOTENCY_LEASE_MS;
        // Only a retry of the same request may take it over; another one is still a misuse of the key.
        assertErrorBody(await create(key, { ...body, name: uniqueName() }), { status: 422, code: 'idempotency_key_reused', message: /another request/ });
        const retry = await create(key, body);
        assert.equal(retry.statusCode, 201);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
        hold.gate.open();
        await stuck;
        // The stuck request no longer owns the key: the retry's answer is the one kept.
        const again = await create(key, body);
        assert.equal(again.body, retry.body);
      });

      it('POST /v1/pets > retried after the key expired > runs again as a new request', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        assert.equal((await create(key, body)).statusCode, 201);
        t.clock.now += 24 * HOUR;
        const retry = await create(key, body);
        assert.equal(retry.statusCode, 201);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
        assert.equal((await petsNamed(body.name)).length, 2);
      });

      it('POST /v1/pets > many concurrent retries of one create > make exactly one animal', async () => {
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        const answers = await Promise.all(Array.from({ length: 20 }, () => create(key, body)));
        const firsts = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
        assert.equal(firsts.length, 1);
        for (const answer of answers) {
          if (answer.statusCode === 409) assertErrorBody(answer, { status: 409, code: 'idempotency_key_in_use', message: /still running/ });
          else assert.equal(answer.body, firsts[0]!.body);
        }
        assert.equal((await petsNamed(body.name)).length, 1);
      });

      it('GET /metrics > after a replay > counts it by operation', async () => {
        const metrics = async () => sampleValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, 'animal_store_idempotent_replays_total', { operation: 'createPet' }) ?? 0;
        const before = await metrics();
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        await create(key, body);
        await create(key, body);
        assert.equal(await metrics(), before + 1);
      });
    });

    describe('PATCH and DELETE of a pet', () => {
      it('PATCH /v1/pets/{id} > refused for a stale If-Match > the 412 is not kept: the same key with the current ETag changes the pet', async () => {
        const pet = await createdPet();
        const key = newKey();
        const patch = (ifMatch: string) =>
          t.app.inject({ method: 'PATCH', url: `/v1/pets/${pet.id}`, headers: { ...t.auth, ...json, 'if-match': ifMatch, 'idempotency-key': key }, payload: '{"status":"sold"}' });
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
        const remove = (ifMatch: string) => t.app.inject({ method: 'DELETE', url: `/v1/pets/${pet.id}`, headers: { ...t.auth, 'if-match': ifMatch, 'idempotency-key': key } });
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
          t.app.inject({ method: 'PATCH', url: `/v1/pets/${pet.id}`, headers: { ...t.auth, ...json, 'idempotency-key': key }, payload: '{"status":"pending"}' });
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
        const place = () => t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json, 'idempotency-key': key }, payload: { petId: pet.id } });
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
          const order = (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pet.id } })).json() as { id: number };
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
        const order = (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pet.id } })).json() as { id: number };
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
          Number((await t.database.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', '=', status as 'placed').executeTakeFirstOrThrow()).n);
        const pet = await createdPet();
        const order = (await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId: pet.id } })).json() as { id: number };
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
