/**
 * End to end, the built command serving pets: adding, listing page by page, and fetching one
 * with the deprecated operation, over real HTTP.
 *
 * Real child processes (`dist/cli.js`, which `npm test` builds first), real HTTP on a real port,
 * a real database: no mocks, no inject(). The whole file runs once per dialect (a SQLite file in a
 * temporary folder; a fresh PostgreSQL schema when TEST_DATABASE_URL is set, else it shows as
 * skipped) with the same assertions, so every behaviour is shown to be the same on both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, createPet, nextLinkOf, type Pet, servedSuite, SUNSET, unique, uniqueCategory, walk } from '../helpers/cli-e2e.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  // A safety net: a hung process or request fails the file instead of stalling `npm test`.
  describeOnDialect(dialect, `animal-store serve on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    // The server most tests talk to, on its own database, with a key made by the CLI.
    let server: RunningService;
    let key: string;
    servedSuite(dialect, (suite) => ({ server, key } = suite));

    describe('when a client adds a pet', () => {
      it('answers 201 with a Location header and the pet, available by default', async () => {
        const name = unique('Rex');
        const categoryId = uniqueCategory();
        const answer = await call(server, 'POST', '/v1/pets', { key, body: { name, categoryId } });
        assert.equal(answer.status, 201, answer.text);
        const pet = answer.body as Pet;
        assert.ok(Number.isSafeInteger(pet.id) && pet.id >= 1);
        assert.deepEqual(pet, { id: pet.id, name, categoryId, status: 'available' });
        assert.equal(answer.headers.get('location'), `/v1/pets/${pet.id}`);

        const fetched = await call(server, 'GET', answer.headers.get('location')!, { key });
        assert.equal(fetched.status, 200);
        assert.deepEqual(fetched.body, pet);
      });

      it('answers the status it was given, and the name exactly as sent', async () => {
        const name = `  ${unique('Tom')} é 🐈  `;
        const pet = await createPet(server, key, { name, status: 'pending' });
        assert.equal(pet.status, 'pending');
        assert.equal(pet.name, name);
      });
    });

    describe('when a client lists pets', () => {
      it('answers at most limit pets in ascending id order, with a next link while more follow', async () => {
        await createPet(server, key);
        await createPet(server, key);
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal((answer.body as Pet[]).length, 1);
        assert.ok(nextLinkOf(answer)?.startsWith('/v1/pets?'), `Link: ${answer.headers.get('link')}`);

        const all = await call(server, 'GET', '/v1/pets?limit=100', { key });
        const ids = (all.body as Pet[]).map((p) => p.id);
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
        );
      });

      it('answers every pet exactly once when the next links are followed to the end', async () => {
        const mine = [];
        for (let i = 0; i < 5; i += 1) mine.push(await createPet(server, key));
        const { pets, pages } = await walk(server, key, '/v1/pets?limit=2');
        const ids = pets.map((p) => p.id);
        assert.equal(new Set(ids).size, ids.length, 'no pet appears twice');
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
          'ids ascend across pages',
        );
        for (const pet of mine)
          assert.deepEqual(
            pets.filter((p) => p.id === pet.id),
            [pet],
            `pet ${pet.id} appears once, unchanged`,
          );
        assert.ok(pages.length >= 3);
        for (const page of pages.slice(0, -1)) assert.equal(page.length, 2, 'every page but the last is full');
        assert.ok(pages.at(-1)!.length >= 1 && pages.at(-1)!.length <= 2);
      });

      it('answers only pets of the status asked for, across pages too', async () => {
        const categoryId = uniqueCategory();
        const sold = [await createPet(server, key, { categoryId, status: 'sold' }), await createPet(server, key, { categoryId, status: 'sold' })];
        const pending = await createPet(server, key, { categoryId, status: 'pending' });
        const available = await createPet(server, key, { categoryId });

        const { pets, pages } = await walk(server, key, '/v1/pets?status=sold&limit=1');
        assert.ok(pages.length >= 2);
        assert.ok(
          pets.every((p) => p.status === 'sold'),
          'only sold pets',
        );
        for (const pet of sold) assert.equal(pets.filter((p) => p.id === pet.id).length, 1);
        assert.ok(!pets.some((p) => p.id === pending.id || p.id === available.id));

        const pendingPage = await walk(server, key, '/v1/pets?status=pending&limit=100');
        assert.ok(pendingPage.pets.some((p) => p.id === pending.id));
        assert.ok(pendingPage.pets.every((p) => p.status === 'pending'));
      });

      it('answers 400 validation_failed for a bad limit, a bad status or an unknown parameter', async () => {
        for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=1e2', 'limit=', 'status=lost', 'stauts=sold']) {
          const answer = await call(server, 'GET', `/v1/pets?${query}`, { key });
          assertErrorBody(answer, { status: 400, code: 'validation_failed' });
        }
        const unknown = assertErrorBody(await call(server, 'GET', '/v1/pets?stauts=sold', { key }), { status: 400, code: 'validation_failed' });
        assert.match(unknown.message, /stauts/);
      });

      it('answers 400 invalid_cursor for a forged cursor or one used with another status filter', async () => {
        assertErrorBody(await call(server, 'GET', '/v1/pets?cursor=not-a-cursor', { key }), { status: 400, code: 'invalid_cursor' });
        await createPet(server, key, { status: 'sold' });
        await createPet(server, key, { status: 'sold' });
        const first = await call(server, 'GET', '/v1/pets?status=sold&limit=1', { key });
        const next = nextLinkOf(first);
        assert.ok(next, 'a next link');
        const cursor = new URL(next, server.baseUrl).searchParams.get('cursor');
        assert.ok(cursor);
        assertErrorBody(await call(server, 'GET', `/v1/pets?limit=1&cursor=${encodeURIComponent(cursor)}`, { key }), { status: 400, code: 'invalid_cursor' });
        assertErrorBody(await call(server, 'GET', `/v1/pets?status=pending&cursor=${encodeURIComponent(cursor)}`, { key }), {
          status: 400,
          code: 'invalid_cursor',
        });
      });
    });

    describe('when a client fetches one pet (the deprecated operation)', () => {
      it('answers 200 with the pet and Deprecation, Sunset and Link headers', async () => {
        const pet = await createPet(server, key);
        const answer = await call(server, 'GET', `/v1/pets/${pet.id}`, { key });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, pet);
        const deprecation = answer.headers.get('deprecation') ?? '';
        assert.match(deprecation, /^@\d+$/, `Deprecation: ${deprecation}`);
        const deprecatedAt = Number(deprecation.slice(1)) * 1000;
        assert.ok(deprecatedAt <= Date.now() && deprecatedAt < Date.parse(SUNSET), 'deprecated before now and before the sunset');
        assert.equal(answer.headers.get('sunset'), SUNSET);
        const link = answer.headers.get('link') ?? '';
        assert.match(link, /<\/v1\/pets>;\s*rel="successor-version"/);
        assert.match(link, /rel="deprecation"/);
      });

      it('answers 404 pet_not_found for an id no pet has', async () => {
        const pet = await createPet(server, key);
        assertErrorBody(await call(server, 'GET', `/v1/pets/${pet.id + 1_000_000}`, { key }), { status: 404, code: 'pet_not_found' });
        assertErrorBody(await call(server, 'GET', `/v1/pets/${Number.MAX_SAFE_INTEGER}`, { key }), { status: 404, code: 'pet_not_found' });
      });

      it('answers 400 validation_failed for a petId that is not a whole number from 1 to 2^53-1', async () => {
        for (const petId of ['abc', '1.5', '0', '-1', '1e2', '0x10', '9007199254740992']) {
          const body = assertErrorBody(await call(server, 'GET', `/v1/pets/${petId}`, { key }), { status: 400, code: 'validation_failed' });
          assert.match(body.message, /petId/, `petId ${petId}: ${body.message}`);
        }
      });
    });
  });
}
