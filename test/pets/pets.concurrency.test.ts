import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { CURSOR_SECRET_NAME } from '../../src/pagination/cursor-secret.js';
import { petCursors } from '../../src/pets/pets.cursor.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { obtainServiceSecret } from '../../src/secrets/service-secrets.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { describeOnPostgres } from '../helpers/test-db.js';

// SQLite lets one writer at a time into the file, so this race exists only on PostgreSQL, where
// ids are drawn at insert but become visible at commit. (On SQLite the same test would block
// its own event loop: better-sqlite3 waits for the file lock synchronously.)
describeOnPostgres('GET /v1/pets while a slow create is committing on postgres', {}, () => {
  let t: TestApp;
  let other: DbHandle;
  before(async () => {
    t = await createTestApp('postgres');
    other = createDb(t.database.url, { poolMax: 1 });
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  const create = (name: string) =>
    t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, 'content-type': 'application/json' }, payload: { name, categoryId: 1 } });
  const page = async (cursor: string) => (await t.app.inject({ method: 'GET', url: `/v1/pets?limit=100&cursor=${cursor}`, headers: t.auth })).json() as { id: number }[];

  it('a walk that reads meanwhile > still meets both pets, the slow one first', async () => {
    const lastId = (await create('before')).json().id as number;
    const cursors = petCursors(await obtainServiceSecret(t.database.db, CURSOR_SECRET_NAME));
    const cursor = cursors.encode(lastId, {});

    // A create that has drawn its id but not committed yet, as a slow client's would be.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowId: number | undefined;
    const slow = other.db.transaction().execute(async (trx) => {
      slowId = (await insertPet(trx, { name: 'slow', categoryId: 1, status: 'available', createdAt: Date.now() })).id;
      await gate;
    });
    while (slowId === undefined) await sleep(10);

    const fast = create('fast');
    await sleep(200);
    // A client walking now must not be shown a pet numbered after the slow one...
    const seenWhileCommitting = await page(cursor);
    release();
    await slow;
    const fastId = (await fast).json().id as number;
    assert.ok(fastId > slowId, 'the later create got the later id');

    // ...or its next page, which starts after what it saw, would never show the slow one.
    const next = seenWhileCommitting.length > 0 ? cursors.encode(seenWhileCommitting.at(-1)!.id, {}) : cursor;
    const walked = [...seenWhileCommitting, ...(await page(next))].map((pet) => pet.id);
    assert.deepEqual(walked, [slowId, fastId]);
  });
});
