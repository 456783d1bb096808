/**
 * Answers kept by http/kept-answers.ts must never be staler than the request before them: a change
 * made through this app, or committed by another connection to the same SQLite file (another
 * worker, another instance, `keys create`), is seen by the next request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { keptValues } from '../../src/http/kept-answers.js';
import { createPet, deletePet, updatePet } from '../../src/pets/pets.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A request that arrives after the other connection's commit comes in a later turn of the event loop. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('answers kept between requests (SQLite)', () => {
  let t: TestApp;
  /** A second connection to the same file, as another process would have. */
  let other: DbHandle;

  before(async () => {
    t = await createTestApp('sqlite');
    other = createDb(t.database.url);
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: t.auth });
    assert.equal(response.statusCode, 200, response.body);
    return response;
  };
  const names = async (url: string) => (await get(url)).json().map((pet: { name: string }) => pet.name);

  it('a pet created by another connection is listed, and found by id, by the next request', async () => {
    const first = (await createPet(other.db, { name: 'Ada', categoryId: 1 })).pet;
    await nextTurn();
    assert.deepEqual(await names('/v1/pets?limit=20'), ['Ada']);
    assert.deepEqual(await names(`/v1/pets?id=${first.id}`), ['Ada']);
    assert.equal((await get(`/v1/pets/${first.id}`)).json().name, 'Ada');

    const second = (await createPet(other.db, { name: 'Bo', categoryId: 1 })).pet;
    await nextTurn();
    assert.deepEqual(await names('/v1/pets?limit=20'), ['Ada', 'Bo']);
    assert.deepEqual(await names(`/v1/pets?id=${second.id}`), ['Bo']);
  });

  it('a change or removal by another connection is seen by the next request', async () => {
    const { pet } = await createPet(other.db, { name: 'Cy', categoryId: 2 });
    await nextTurn();
    const before = await get(`/v1/pets/${pet.id}`);
    assert.equal(before.json().name, 'Cy');
    assert.deepEqual(await names('/v1/pets?categoryId=2'), ['Cy']);

    await updatePet(other.db, pet.id, { name: 'Cyd' });
    await nextTurn();
    const changed = await get(`/v1/pets/${pet.id}`);
    assert.equal(changed.json().name, 'Cyd');
    assert.notEqual(changed.headers.etag, before.headers.etag);
    assert.deepEqual(await names('/v1/pets?categoryId=2'), ['Cyd']);

    await deletePet(other.db, pet.id);
    await nextTurn();
    assert.deepEqual(await names('/v1/pets?categoryId=2'), []);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${pet.id}`, headers: t.auth })).statusCode, 404);
  });

  it("this app's own changes are seen by its next request, in the same turn", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: { name: 'Di', categoryId: 3 },
    });
    assert.equal(created.statusCode, 201);
    const id = created.json().id;
    assert.deepEqual(await names('/v1/pets?categoryId=3'), ['Di']);
    assert.equal((await get(`/v1/pets/${id}`)).json().name, 'Di');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/pets/${id}`,
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: { name: 'Dido' },
    });
    assert.equal(patched.statusCode, 200);
    assert.deepEqual(await names('/v1/pets?categoryId=3'), ['Dido']);
    assert.equal((await get(`/v1/pets/${id}`)).json().name, 'Dido');
  });

  it('the next-page link is kept with its page', async () => {
    const first = await get('/v1/pets?limit=1');
    const again = await get('/v1/pets?limit=1');
    assert.ok(first.headers.link);
    assert.equal(again.headers.link, first.headers.link);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['content-type'], 'application/json; charset=utf-8');
  });

  it('a kept answer is the same bytes as the first, in UTF-8, with their length', async () => {
    const { pet } = await createPet(t.database.db, { name: 'Zoë 🐕', categoryId: 4 });
    const first = await get(`/v1/pets/${pet.id}`);
    const again = await get(`/v1/pets/${pet.id}`);
    assert.equal(again.json().name, 'Zoë 🐕');
    assert.deepEqual(again.rawPayload, first.rawPayload);
    assert.equal(Number(again.headers['content-length']), again.rawPayload.length);
    assert.equal(again.headers['content-type'], 'application/json; charset=utf-8');
  });
});

describe('keptValues', () => {
  /** A database whose data version the test moves by hand. */
  const withVersion = () => {
    const state = { version: 0 };
    return { version: { current: () => state.version }, state };
  };

  it('keeps a value until the version changes', async () => {
    const { version, state } = withVersion();
    const cache = keptValues<string>(version, { maxEntries: 10 });
    let reads = 0;
    const read = async () => `value ${++reads}`;
    assert.equal(await cache.getOrRead('k', read), 'value 1');
    assert.equal(await cache.getOrRead('k', read), 'value 1');
    state.version += 1;
    assert.equal(cache.get('k'), undefined);
    assert.equal(await cache.getOrRead('k', read), 'value 2');
  });

  it('answers, but does not keep, a value read while the version changed', async () => {
    const { version, state } = withVersion();
    const cache = keptValues<string>(version, { maxEntries: 10 });
    assert.equal(
      await cache.getOrRead('k', async () => {
        state.version += 1;
        return 'read across a change';
      }),
      'read across a change',
    );
    assert.equal(cache.get('k'), undefined);
  });

  it('does not keep a value whose read spans a look that saw a change, even once the version holds still', async () => {
    const { version, state } = withVersion();
    const cache = keptValues<string>(version, { maxEntries: 10 });
    await cache.getOrRead('seen', async () => 'kept before');
    const stale = await cache.getOrRead('k', async () => {
      // The read happened before the change; another request's look sees the change meanwhile.
      state.version += 1;
      assert.equal(cache.get('seen'), undefined);
      return 'read before the change';
    });
    assert.equal(stale, 'read before the change');
    assert.equal(cache.get('k'), undefined);
  });

  it('looks at the version only when a value is found, not on a miss', async () => {
    const state = { version: 0, looks: 0 };
    const cache = keptValues<string>({ current: () => (state.looks++, state.version) }, { maxEntries: 10 });
    const looksAtStart = state.looks;
    assert.equal(await cache.getOrRead('k', async () => 'v'), 'v');
    assert.equal(state.looks, looksAtStart);
    assert.equal(cache.get('k'), 'v');
    assert.equal(state.looks, looksAtStart + 1);
  });

  it('keeps at most maxEntries values, dropping the oldest', async () => {
    const { version } = withVersion();
    const cache = keptValues<number>(version, { maxEntries: 3 });
    for (let i = 0; i < 5; i += 1) await cache.getOrRead(`k${i}`, async () => i);
    assert.deepEqual(
      ['k0', 'k1', 'k2', 'k3', 'k4'].map((key) => cache.get(key)),
      [undefined, undefined, 2, 3, 4],
    );
  });

  it('keeps nothing for a database that tells no version (PostgreSQL)', async () => {
    const cache = keptValues<number>(undefined, { maxEntries: 3 });
    let reads = 0;
    await cache.getOrRead('k', async () => ++reads);
    await cache.getOrRead('k', async () => ++reads);
    assert.equal(reads, 2);
  });
});
