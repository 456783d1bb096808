import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { CURSOR_SECRET_NAME } from '../../src/pagination/cursor-secret.js';
import { petCursors } from '../../src/pets/pets.cursor.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { obtainServiceSecret } from '../../src/secrets/service-secrets.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { describeOnPostgres, untilListable } from '../helpers/test-db.js';

// SQLite lets one writer at a time into the file, so these races exist only on PostgreSQL, where
// ids are drawn at insert but become visible at commit. (On SQLite the same test would block
// its own event loop: better-sqlite3 waits for the file lock synchronously.)
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

  it('a create still open while a later one commits > the later pet is listed only after the open one ends, then both in id order', async () => {
    const cursor = cursors.encode((await create('before')).json().id as number, {});

    // A create that has its id but has not committed, as a slow client's would be.
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
      // A later create does not wait for it: it commits and answers while the slow one is open.
      const fast = await create('fast');
      assert.equal(fast.statusCode, 201, fast.body);
      fastId = fast.json().id as number;
      assert.ok(fastId > slowId!, `the later create got the later id (${fastId} > ${slowId})`);
      // getPet is not held back: the pet is committed.
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${fastId}`, headers: t.auth })).statusCode, 200);

      // A walk reading now must not be shown the fast pet, or its next page, which starts after
      // what it saw, would never show the slow one. Every filter follows the one rule, ids too
      // when they take more than one page.
      assert.deepEqual(await page(`limit=100&cursor=${cursor}`), []);
      assert.deepEqual(await page(`limit=1&id=${slowId}&id=${fastId}`), []);
      // Ids that fit in one page are no walk (no next page can follow): every acknowledged pet, at once.
      assert.deepEqual(await page(`limit=100&id=${slowId}&id=${fastId}`), [fastId]);
    } finally {
      // Never left open, even when an assertion fails: it would hold back every listing of the cluster.
      release();
      await slow;
    }
    await untilListable(t.database.db, fastId);
    assert.deepEqual(await page(`limit=100&cursor=${cursor}`), [slowId, fastId]);
    assert.deepEqual(await page(`limit=100&id=${slowId}&id=${fastId}`), [slowId, fastId]);
  });

  it('a create rolled back while a later one committed > the walk shows the later pet once the first has ended, and no gap is waited for', async () => {
    const cursor = cursors.encode((await create('before')).json().id as number, {});
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedEvent = new Promise<void>((resolve) => (inserted = resolve));
    const rolledBack = other.db
      .transaction()
      .execute(async (trx) => {
        await insertPet(trx, { name: 'never', categoryId: 1, status: 'available', createdAt: Date.now() });
        inserted();
        await gate;
        throw new Error('roll back');
      })
      .catch((error: unknown) => error);
    await insertedEvent;
    let fastId: number;
    try {
      fastId = (await create('fast')).json().id as number;
      assert.deepEqual(await page(`limit=100&cursor=${cursor}`), []);
    } finally {
      release();
      assert.match(String(await rolledBack), /roll back/);
    }
    await untilListable(t.database.db, fastId);
    assert.deepEqual(await page(`limit=100&cursor=${cursor}`), [fastId]);
  });

  it('many creates from several connections while a client walks the pages > the walk meets every pet exactly once, in id order', { timeout: 60_000 }, async () => {
    const start = (await create('start')).json().id as number;
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
                const pet = await insertPet(trx, { name: `many ${i}`, categoryId: 7, status: 'available', createdAt: Date.now() });
                await sql`select 1`.execute(trx);
                return pet.id;
              });
              created.push(id);
            }
          }),
        ),
      ).finally(() => (writing = false));

      // The client: small pages, each read from where the previous one ended, until the writes are
      // over and the last of them settled.
      const seen: number[] = [];
      let after = start;
      const walkOn = async () => {
        const ids = await page(`limit=5&categoryId=7&cursor=${cursors.encode(after, { categoryId: 7 })}`);
        seen.push(...ids);
        if (ids.length > 0) after = ids.at(-1)!;
        return ids.length;
      };
      while (writing) await walkOn();
      await writes;
      await untilListable(t.database.db, Math.max(...created));
      while ((await walkOn()) > 0);

      assert.equal(created.length, 4 * 3 * 25);
      assert.deepEqual(seen, [...created].sort((a, b) => a - b), 'the walk saw every created pet once, in id order');
    } finally {
      await Promise.all(writers.map((writer) => writer.close()));
    }
  });
});
