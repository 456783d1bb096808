import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { CURSOR_SECRET_NAME } from '../../src/pagination/cursor-secret.js';
import { petCursors } from '../../src/pets/pets.cursor.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { obtainServiceSecret } from '../../src/secrets/service-secrets.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { describeOnPostgres } from '../helpers/test-db.js';

// SQLite lets one writer at a time into the file, so these races exist only on PostgreSQL, where
// ids are drawn at insert but become visible at commit, in any order. The promise there: a walk
// meets every pet that existed when it began exactly once, in id order; a pet added during the
// walk may or may not come (docs/api.md, "Pages"). No open transaction delays a listing.
describeOnPostgres('GET /v1/pets while creates are committing on postgres', {}, () => {
  let t: TestApp;
  let other: DbHandle;
  let cursors: ReturnType<typeof petCursors>;
  before(async () => {
    t = await createTestApp('postgres');
    other = createDb(t.database.url, { poolMax: 1 });
    cursors = petCursors(await obtainServiceSecret(t.database.db, CURSOR_SECRET_NAME));
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  const create = (name: string) =>
    t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, 'content-type': 'application/json' }, payload: { name, categoryId: 1 } });
  const page = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/v1/pets?${query}`, headers: t.auth });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json() as { id: number }[]).map((pet) => pet.id);
  };

  it('a create still open while a later one commits > the later pet is listed at once, the open one once it commits', async () => {
    const cursor = cursors.encode((await create('before')).json().id as number, {});
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowId: number | undefined;
    let inserted!: () => void;
    const insertedEvent = new Promise<void>((resolve) => (inserted = resolve));
    const slow = other.db.transaction().execute(async (trx) => {
      slowId = (await insertPet(trx, { name: 'slow', categoryId: 1, status: 'available', createdAt: Date.now() })).id;
      inserted();
      await gate;
    });
    await insertedEvent;
    let fastId: number;
    try {
      const fast = await create('fast');
      assert.equal(fast.statusCode, 201, fast.body);
      fastId = fast.json().id as number;
      assert.ok(fastId > slowId!, `the later create got the later id (${fastId} > ${slowId})`);
      // Nothing held back: every listing shows what is committed.
      assert.deepEqual(await page(`limit=100&cursor=${cursor}`), [fastId]);
      assert.deepEqual(await page(`limit=1&id=${slowId}&id=${fastId}`), [fastId]);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${slowId}`, headers: t.auth })).statusCode, 404);
    } finally {
      release();
      await slow;
    }
    assert.deepEqual(await page(`limit=100&cursor=${cursor}`), [slowId, fastId]);
  });

  it(
    'many creates from several connections while a client walks the pages > the walk meets every pet that existed when it began exactly once, in id order, and no pet twice',
    { timeout: 60_000 },
    async () => {
      const existing: number[] = [];
      for (let i = 0; i < 30; i++) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { name: `old ${i}`, categoryId: 8 },
        });
        existing.push(response.json().id as number);
      }
      const writers = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const handle = createDb(t.database.url, { poolMax: 3 });
          await sql`select 1`.execute(handle.db);
          return handle;
        }),
      );
      try {
        let writing = true;
        const created: number[] = [];
        // Each create waits one more round trip before its commit, as a busy service's would, so
        // commits often land out of id order.
        const writes = Promise.all(
          writers.flatMap((writer) =>
            Array.from({ length: 3 }, async () => {
              for (let i = 0; i < 25; i++) {
                const id = await writer.db.transaction().execute(async (trx) => {
                  const pet = await insertPet(trx, { name: `many ${i}`, categoryId: 8, status: 'available', createdAt: Date.now() });
                  await sql`select 1`.execute(trx);
                  return pet.id;
                });
                created.push(id);
              }
            }),
          ),
        ).finally(() => (writing = false));

        const seen: number[] = [];
        let after = 0;
        const walkOn = async () => {
          const ids = await page(`limit=5&categoryId=8&cursor=${cursors.encode(after, { categoryId: 8 })}`);
          seen.push(...ids);
          if (ids.length > 0) after = ids.at(-1)!;
          return ids.length;
        };
        while (writing) await walkOn();
        await writes;
        while ((await walkOn()) > 0);

        assert.equal(created.length, 4 * 3 * 25);
        assert.equal(new Set(seen).size, seen.length, 'no pet twice');
        assert.deepEqual(
          seen,
          [...seen].sort((a, b) => a - b),
          'in id order',
        );
        for (const id of existing) assert.ok(seen.includes(id), `pet ${id}, there before the walk, was met`);
        assert.ok(seen.every((id) => existing.includes(id) || created.includes(id)));
      } finally {
        await Promise.all(writers.map((writer) => writer.close()));
      }
    },
  );
});
