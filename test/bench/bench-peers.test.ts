/**
 * The bench's naive peers (bench/peers/), started as the bench starts them (bench/servers.ts
 * startPeer) on a fresh migrated database: they answer the service's two reads with the service's
 * page-size bounds, refuse a request without the key, and on PostgreSQL their backends carry a
 * name of their own (so the bench counts their CPU apart from the service's).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { type Server, startPeer } from '../../bench/servers.js';
import { PAGE_SIZE } from '../../src/pagination/page-size.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

const KEY = 'bench-peer-test-key';
const PETS = PAGE_SIZE.default + 5;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `bench peer on ${dialect}`, { timeout: 60_000 }, () => {
    let database: TestDatabase;
    let peer: Server;
    let ids: number[];
    const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const get = (path: string, key: string | null = KEY) => fetch(peer.baseUrl + path, key === null ? {} : { headers: { authorization: `Bearer ${key}` } });

    before(async () => {
      database = await createTestDatabase(dialect);
      // One statement per pet: on PostgreSQL a pet's default id comes from its transaction.
      for (let n = 1; n <= PETS; n++) {
        await sql`insert into pets (name, name_key, category_id, status, created_at) values (${`Pet ${n}`}, ${`pet ${n}`}, ${n % 4}, 'available', 1)`.execute(
          database.db,
        );
      }
      ids = (await sql<{ id: string | number }>`select id from pets order by id`.execute(database.db)).rows.map((row) => Number(row.id));
      const applicationName = `animal-store-peer-test-${process.pid}`;
      peer = await startPeer(
        {
          label,
          url: database.url,
          ...(dialect === 'postgres' ? { applicationName } : {}),
          description: 'the test database',
          query: async <T>(text: string) => (await sql.raw(text).execute(database.db)).rows as T[],
        },
        KEY,
      );
    });
    after(async () => {
      await peer?.stop();
      await database?.drop();
    });

    it('GET /v1/pets > without the bench key > answers 401 with a JSON body', async () => {
      for (const key of [null, 'another-key']) {
        const response = await get('/v1/pets', key);
        assert.equal(response.status, 401);
        assert.deepEqual(await response.json(), { code: 'unauthorized', message: 'a valid bearer key is required', status: 401 });
      }
    });

    it('GET /v1/pets > without limit > answers the first page of the service’s default size, pets as the service writes them', async () => {
      const response = await get('/v1/pets');
      assert.equal(response.status, 200);
      const pets = (await response.json()) as unknown[];
      assert.equal(pets.length, PAGE_SIZE.default);
      assert.deepEqual(pets[0], { id: ids[0], name: 'Pet 1', categoryId: 1, status: 'available' });
      assert.deepEqual(
        pets.map((pet) => (pet as { id: number }).id),
        ids.slice(0, PAGE_SIZE.default),
      );
    });

    it('GET /v1/pets > with limit at the service’s bounds > answers that many pets, and 400 just outside them', async () => {
      assert.equal(((await (await get(`/v1/pets?limit=${PAGE_SIZE.min}`)).json()) as unknown[]).length, PAGE_SIZE.min);
      assert.equal(((await (await get(`/v1/pets?limit=${PAGE_SIZE.max}`)).json()) as unknown[]).length, PETS);
      for (const limit of [PAGE_SIZE.min - 1, PAGE_SIZE.max + 1, 'x']) assert.equal((await get(`/v1/pets?limit=${limit}`)).status, 400, String(limit));
    });

    it('GET /v1/pets/{petId} > of a pet and of a missing one > answers the pet, or 404 with a JSON body', async () => {
      const last = ids.at(-1)!;
      const found = await get(`/v1/pets/${last}`);
      assert.equal(found.status, 200);
      assert.deepEqual(await found.json(), { id: last, name: `Pet ${PETS}`, categoryId: PETS % 4, status: 'available' });
      const missing = await get(`/v1/pets/${last + 1000}`);
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { code: 'pet_not_found', message: `no pet has id ${last + 1000}`, status: 404 });
    });

    if (dialect === 'postgres') {
      it('PostgreSQL backends > of the peer’s pool > are found by the peer’s own application_name', async () => {
        assert.equal((await get('/v1/pets')).status, 200);
        const backends = await peer.backendCpu?.();
        assert.ok(backends && backends.size >= 1, `backends: ${JSON.stringify([...(backends ?? [])])}`);
      });
    }
  });
}
