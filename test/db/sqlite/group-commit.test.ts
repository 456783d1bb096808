/**
 * Group commit (db/sqlite/group-commit.ts) on a real SQLite file: the writes that arrive together share
 * one transaction, a member that fails is rolled back alone, and nobody is answered before the
 * group has committed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createDb } from '../../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import type { Database } from '../../../src/db/database.js';
import { singleWrite, writeTransaction } from '../../../src/db/dialect.js';
import { engineOf } from '../../../src/db/engine.js';
import { AppError } from '../../../src/errors.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';

describe('group commit (SQLite)', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase('sqlite');
  });
  after(async () => {
    await t.drop();
  });

  const countPets = async () => Number((await sql<{ n: number }>`select count(*) as n from pets`.execute(t.db)).rows[0]!.n);
  const insert = (db: Kysely<Database>, name: string) =>
    db.insertInto('pets').values({ name, nameKey: name, categoryId: 1, status: 'available', createdAt: 0 }).returning('id').executeTakeFirstOrThrow();

  it('is used on SQLite, never inside a transaction', async () => {
    assert.ok(engineOf(t.db)?.groupCommit);
    // Inside a transaction a write is part of it, not of a group.
    await t.db.transaction().execute((trx) => singleWrite(trx as Kysely<Database>, async (writer) => assert.equal(writer, trx)));
  });

  it('writes that arrive together share one transaction', async () => {
    const seen = new Set<unknown>();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        writeTransaction(t.db, async (trx) => {
          seen.add(trx);
          return insert(trx, `together ${i}`);
        }),
      ),
    );
    assert.equal(results.length, 40);
    assert.equal(new Set(results.map((r) => r.id)).size, 40);
    assert.equal(seen.size, 1, 'all 40 ran in one transaction');
  });

  it('a member that fails is rolled back alone, with its own error; the others are stored', async () => {
    const before = await countPets();
    const outcomes = await Promise.allSettled([
      singleWrite(t.db, (db) => insert(db, 'kept 1')),
      writeTransaction(t.db, async (trx) => {
        await insert(trx, 'half done');
        throw new AppError('pet_has_open_order', 'refused after a write');
      }),
      singleWrite(t.db, (db) => insert(db, 'kept 2')),
      // A constraint failure inside the database.
      singleWrite(t.db, (db) =>
        db
          .insertInto('pets')
          .values({ name: null as never, nameKey: 'x', categoryId: 1, status: 'available', createdAt: 0 })
          .execute(),
      ),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected'],
    );
    assert.equal(((outcomes[1] as PromiseRejectedResult).reason as AppError).code, 'pet_has_open_order');
    assert.match(String((outcomes[3] as PromiseRejectedResult).reason), /NOT NULL/);
    const names = (await t.db.selectFrom('pets').select('name').where('name', 'in', ['kept 1', 'kept 2', 'half done']).execute()).map((r) => r.name);
    assert.deepEqual(names.sort(), ['kept 1', 'kept 2']);
    assert.equal(await countPets(), before + 2);
  });

  it('a lone member that fails stores nothing and gets its own error', async () => {
    const before = await countPets();
    await assert.rejects(
      writeTransaction(t.db, async (trx) => {
        await insert(trx, 'alone');
        throw new AppError('pet_not_found', 'no such pet');
      }),
      (error: AppError) => error.code === 'pet_not_found',
    );
    assert.equal(await countPets(), before);
  });

  it('a transaction SQLite rolled back by itself fails with its own error, not with the rollback that finds nothing to undo', async () => {
    // What a COMMIT failing for a full disk leaves: no transaction open when Kysely rolls back.
    await assert.rejects(
      t.db.transaction().execute(async (trx) => {
        await sql`rollback`.execute(trx);
        throw new Error('the original failure');
      }),
      /the original failure/,
    );
  });

  it('a group of three whose middle member makes SQLite roll back the whole transaction > every member fails as unavailable, only the one that failed carries the cause, and nothing is stored', async () => {
    // A real SQLITE_FULL: the file may not grow, and the middle member writes more than the free
    // pages hold. Into a table of no index and no constraint, so the insert runs without a
    // statement journal and SQLite rolls back the whole transaction, savepoints included (with
    // one, as for a pet, it would undo that statement alone). An I/O error does the same anywhere.
    await sql`create table if not exists filler (v text)`.execute(t.db);
    const before = await countPets();
    let rolledBackBySqlite: boolean | undefined;
    const outcomes = await Promise.allSettled([
      singleWrite(t.db, (db) => insert(db, 'first of a lost group')),
      writeTransaction(t.db, async (trx) => {
        // (Kysely's CamelCasePlugin names the pragmas' columns.)
        const pages = (await sql<{ pageCount: number }>`pragma page_count`.execute(trx)).rows[0]!.pageCount;
        const free = (await sql<{ freelistCount: number }>`pragma freelist_count`.execute(trx)).rows[0]!.freelistCount;
        const pageSize = (await sql<{ pageSize: number }>`pragma page_size`.execute(trx)).rows[0]!.pageSize;
        await sql.raw(`pragma max_page_count = ${pages}`).execute(trx);
        try {
          return await sql`insert into filler (v) values (${'x'.repeat((free + 2) * pageSize)})`.execute(trx);
        } finally {
          rolledBackBySqlite = !(await sql<{ n: number }>`select count(*) as n from pets where name = 'first of a lost group'`.execute(trx)).rows[0]!.n;
        }
      }),
      singleWrite(t.db, (db) => insert(db, 'last of a lost group')),
    ]);
    await sql.raw('pragma max_page_count = 1073741823').execute(t.db);

    assert.equal(rolledBackBySqlite, true, 'SQLite undid the first member by itself');
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    const errors = outcomes.map((o) => (o as PromiseRejectedResult).reason as { code?: string; message: string });
    assert.deepEqual(
      errors.map((e) => isDatabaseUnavailable(e)),
      [true, true, true],
      'each answers 503',
    );
    assert.equal(errors[1]!.code, 'SQLITE_FULL', 'the member that hit the full disk gets that error');
    assert.match(errors[1]!.message, /database or disk is full/);
    for (const i of [0, 2]) {
      assert.doesNotMatch(errors[i]!.message, /no such savepoint|database or disk is full/, 'the others carry neither a misleading error nor the cause again');
      assert.match(errors[i]!.message, /rolled back with its group/);
    }
    assert.equal(await countPets(), before, 'nothing of the group is stored');

    // The next group commits as usual.
    const next = await Promise.all([1, 2, 3].map((i) => singleWrite(t.db, (db) => insert(db, `after the lost group ${i}`))));
    assert.equal(next.length, 3);
    assert.equal(await countPets(), before + 3);
  });

  it('no member is answered before its group has committed', async () => {
    // Another connection sees only what was committed.
    const reader = createDb(t.url);
    let answered = 0;
    const writes = Array.from({ length: 10 }, (_, i) =>
      singleWrite(t.db, (db) => insert(db, `visible ${i}`)).then(async (row) => {
        answered += 1;
        const seen = await sql<{ n: number }>`select count(*) as n from pets where id = ${row.id}`.execute(reader.db);
        return seen.rows[0]!.n;
      }),
    );
    try {
      assert.deepEqual(await Promise.all(writes), Array(10).fill(1));
      assert.equal(answered, 10);
    } finally {
      await reader.close();
    }
  });
});

describe('creates answered together (SQLite, over the app)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(async () => {
    await t.close();
  });

  it('50 creates at once all answer 201 with distinct ids, and a failing one does not fail the others', async () => {
    const headers = { ...t.auth, 'content-type': 'application/json' };
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => t.app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: `pet ${i}`, categoryId: 1 } })),
    ]);
    assert.deepEqual(new Set(answers.map((a) => a.statusCode)), new Set([201]));
    assert.equal(new Set(answers.map((a) => a.json().id)).size, 50);
    const listed = await t.app.inject({ method: 'GET', url: '/v1/pets?limit=100', headers: t.auth });
    assert.equal(listed.json().length, 50);
  });
});
