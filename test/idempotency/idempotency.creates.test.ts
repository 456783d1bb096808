/**
 * Idempotency-Key on POST /v1/pets: replays, conflicts, concurrent requests with one key, failures and leases.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { IDEMPOTENCY_LEASE_MS } from '../../src/idempotency/idempotency.service.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { sampleValue } from '../helpers/metrics.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { gate, HOUR, idempotencySuite } from './idempotency.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `Idempotency-Key on ${dialect}`, {}, () => {
    let t: TestApp;
    const { held, failing, json, newKey, uniqueName, create, petsNamed, storedKey } = idempotencySuite(dialect, (ready) => ({ t } = ready));

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
        const metrics = async () =>
          sampleValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, 'animal_store_idempotent_replays_total', { operation: 'createPet' }) ?? 0;
        const before = await metrics();
        const key = newKey();
        const body = { name: uniqueName(), categoryId: 7 };
        await create(key, body);
        await create(key, body);
        assert.equal(await metrics(), before + 1);
      });
    });
  });
}
