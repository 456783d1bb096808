/**
 * What other transactions of the cluster do to the listings on PostgreSQL (db/visible-bound.ts):
 * one of another database never holds them back; one of this database does (a walk stays exact),
 * but never a getPet or a one-page `?id=`, and past PG_HOLD_WARN_MS it is logged once, counted in
 * a gauge and shown by /readyz. The store gets a database of its own, so no other suite's
 * transaction (of the shared test database) is ever one of "this database".
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb } from '../../src/db/create-db.js';
import { CURSOR_SECRET_NAME } from '../../src/pagination/cursor-secret.js';
import { petCursors } from '../../src/pets/pets.cursor.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { obtainServiceSecret } from '../../src/secrets/service-secrets.js';
import { nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createScratchDatabase, describeOnPostgres, PREPARED_TRANSACTIONS_SKIP_REASON } from '../helpers/test-db.js';
import { openSession, beginHolding, otherDatabaseUrl, untilHoldLogged } from './listing-holds.sessions.js';

describeOnPostgres('PostgreSQL listings and transactions elsewhere in the cluster', {}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres', { database: await createScratchDatabase() });
  });
  after(async () => {
    await t?.close();
  });

  const post = async (url: string, payload: object) => {
    const response = await t.app.inject({ method: 'POST', url, headers: { ...t.auth, 'content-type': 'application/json' }, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: number };
  };
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: t.auth });
    assert.equal(response.statusCode, 200, response.body);
    return { ids: (response.json() as { id: number }[]).map((item) => item.id), next: nextLinkOf(response.headers.link) };
  };

  it('an idle transaction in another database > does not hide a new pet from ?id=, ?categoryId= nor the order listing', async () => {
    const other = await openSession(otherDatabaseUrl(), 'forgotten psql');
    try {
      await beginHolding(other);
      const categoryId = 100 + Math.floor(Math.random() * 1e6);
      const first = await post('/v1/pets', { name: 'Elsewhere 1', categoryId });
      const second = await post('/v1/pets', { name: 'Elsewhere 2', categoryId });
      const order = await post('/v1/store/orders', { petId: first.id });

      assert.deepEqual((await get(`/v1/pets?categoryId=${categoryId}`)).ids, [first.id, second.id]);
      // Two ids in pages of one: a walk, under the listings' rule, and still not held back.
      const page = await get(`/v1/pets?id=${first.id}&id=${second.id}&limit=1`);
      assert.deepEqual(page.ids, [first.id]);
      assert.ok(page.next, 'a next page is announced');
      assert.deepEqual((await get(`/v1/store/orders?petId=${first.id}`)).ids, [order.id]);
    } finally {
      await other.end();
    }
  });

  it('an idle transaction in this database, a pet created after it > getPet and a one-page ?id= answer it at once, a walk waits, then sees every pet once', async () => {
    const holder = await openSession(t.database.url, 'forgotten psql');
    let held = true;
    try {
      const categoryId = 100 + Math.floor(Math.random() * 1e6);
      const before = await post('/v1/pets', { name: 'Before', categoryId });
      await beginHolding(holder);
      // The holder writes a pet too, with the smaller id: what a walk must not pass.
      const { rows } = await holder.query<{ id: string }>('insert into pets (name, name_key, category_id, status, created_at) values ($1, $2, $3, $4, $5) returning id', [
        'Slow',
        'slow',
        categoryId,
        'available',
        Date.now(),
      ]);
      const slowId = Number(rows[0]!.id);
      const pet = await post('/v1/pets', { name: 'After', categoryId });
      assert.ok(pet.id > slowId);

      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${pet.id}`, headers: t.auth })).statusCode, 200);
      assert.deepEqual((await get(`/v1/pets?id=${pet.id}`)).ids, [pet.id], 'one page of ids is no walk: every acknowledged pet, at once');
      assert.deepEqual((await get(`/v1/pets?id=${pet.id}&id=${before.id}&id=${slowId}`)).ids, [before.id, pet.id]);
      // Beyond one page, ids page like any listing: nothing past the open transaction yet.
      assert.deepEqual((await get(`/v1/pets?id=${before.id}&id=${pet.id}&limit=1`)).ids, [before.id]);
      const walked = await get(`/v1/pets?categoryId=${categoryId}`);
      assert.deepEqual(walked.ids, [before.id], 'a walk stops before the transaction still open');

      await holder.query('commit');
      held = false;
      const seen: number[] = [];
      let next: string | undefined = `/v1/pets?categoryId=${categoryId}&limit=1`;
      while (next) {
        const page = await get(next);
        seen.push(...page.ids);
        next = page.next;
      }
      assert.deepEqual(seen, [before.id, slowId, pet.id], 'once it ends, the walk sees every pet once, in id order');
    } finally {
      if (held) await holder.query('rollback').catch(() => {});
      await holder.end();
    }
  });
});

describeOnPostgres('PostgreSQL walks while another database keeps a transaction open', {}, () => {
  it('many creates from several connections, a client walking the pages, an idle transaction elsewhere all along > the walk meets every pet exactly once, in id order, and ends without waiting for it', { timeout: 120_000 }, async () => {
    const t = await createTestApp('postgres', { database: await createScratchDatabase() });
    const other = await openSession(otherDatabaseUrl(), 'forgotten psql');
    const writers = Array.from({ length: 4 }, () => createDb(t.database.url, { poolMax: 3 }));
    try {
      await beginHolding(other);
      const categoryId = 7;
      const start = (await insertPet(t.database.db, { name: 'start', categoryId, status: 'available', createdAt: Date.now() })).id;
      let writing = true;
      const created: number[] = [];
      // Each create waits one more round trip before its commit, so commits often land out of id order.
      const writes = Promise.all(
        writers.flatMap((writer) =>
          Array.from({ length: 3 }, async () => {
            for (let i = 0; i < 25; i++) {
              const id = await writer.db.transaction().execute(async (trx) => {
                const pet = await insertPet(trx, { name: `many ${i}`, categoryId, status: 'available', createdAt: Date.now() });
                await sql`select 1`.execute(trx);
                return pet.id;
              });
              created.push(id);
            }
          }),
        ),
      ).finally(() => (writing = false));
      const seen: number[] = [];
      let after = start;
      const cursors = petCursors(await obtainServiceSecret(t.database.db, CURSOR_SECRET_NAME));
      const walkOn = async () => {
        const response = await t.app.inject({ method: 'GET', url: `/v1/pets?limit=5&categoryId=${categoryId}&cursor=${cursors.encode(after, { categoryId })}`, headers: t.auth });
        assert.equal(response.statusCode, 200, response.body);
        const ids = (response.json() as { id: number }[]).map((pet) => pet.id);
        seen.push(...ids);
        if (ids.length > 0) after = ids.at(-1)!;
        return ids.length;
      };
      while (writing) await walkOn();
      await writes;
      // The writes are over and the other database's transaction is still open: the rest of the
      // walk comes at once (before, it waited for that transaction for as long as it ran).
      while (seen.length < created.length) assert.ok((await walkOn()) > 0 || seen.length === created.length, 'the walk is not held back');
      assert.equal(await walkOn(), 0);
      assert.deepEqual(seen, [...created].sort((a, b) => a - b), 'the walk saw every created pet once, in id order');
    } finally {
      await other.end();
      await Promise.all(writers.map((writer) => writer.close()));
      await t.close();
    }
  });
});

describeOnPostgres('PostgreSQL prepared transactions and the listings', {}, () => {
  let t: TestApp;
  let preparedAllowed = false;
  before(async () => {
    t = await createTestApp('postgres', { database: await createScratchDatabase(), env: { PG_HOLD_WARN_MS: '100' } });
    const admin = await openSession(otherDatabaseUrl(), 'test');
    preparedAllowed = Number((await admin.query<{ max: string }>("select current_setting('max_prepared_transactions') as max")).rows[0]!.max) > 0;
    await admin.end();
  });
  after(async () => {
    await t?.close();
  });

  it('a prepared transaction of this database and one of another > only the first holds a walk back, a one-page ?id= is not held, the hold is logged by its gid', async (context) => {
    if (!preparedAllowed) {
      context.skip(PREPARED_TRANSACTIONS_SKIP_REASON);
      return;
    }
    const gid = `animal-store-test-${randomBytes(4).toString('hex')}`;
    const otherGid = `${gid}-other`;
    const here = await openSession(t.database.url, 'migration');
    const elsewhere = await openSession(otherDatabaseUrl(), 'migration');
    const categoryId = 100 + Math.floor(Math.random() * 1e6);
    let preparedHere = false;
    let preparedElsewhere = false;
    try {
      await beginHolding(elsewhere);
      await elsewhere.query(`prepare transaction '${otherGid}'`);
      preparedElsewhere = true;
      const create = async (name: string) => {
        const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, 'content-type': 'application/json' }, payload: { name, categoryId } });
        assert.equal(response.statusCode, 201, response.body);
        return (response.json() as { id: number }).id;
      };
      const list = async (query: string) => (await t.app.inject({ method: 'GET', url: `/v1/pets?${query}`, headers: t.auth })).json() as { id: number }[];
      const first = await create('Under a foreign prepared transaction');
      assert.deepEqual((await list(`categoryId=${categoryId}`)).map((pet) => pet.id), [first]);

      await beginHolding(here);
      await here.query(`prepare transaction '${gid}'`);
      preparedHere = true;
      const second = await create('Under a prepared transaction of this database');
      assert.deepEqual((await list(`id=${second}`)).map((pet) => pet.id), [second]);
      assert.deepEqual((await list(`categoryId=${categoryId}`)).map((pet) => pet.id), [first]);

      const line = await untilHoldLogged(t, (entry) => entry.gid === gid);
      assert.equal(typeof line.ageMs, 'number');
      assert.equal(line.gid, gid);

      await here.query(`rollback prepared '${gid}'`);
      preparedHere = false;
      assert.deepEqual((await list(`categoryId=${categoryId}`)).map((pet) => pet.id), [first, second]);
    } finally {
      // Never left behind: a prepared transaction outlives its session and holds back every
      // listing of its database (and the stricter visible_id_bound() of the whole cluster).
      // ROLLBACK PREPARED runs in the prepared transaction's own database.
      if (preparedHere) await here.query(`rollback prepared '${gid}'`);
      if (preparedElsewhere) await elsewhere.query(`rollback prepared '${otherGid}'`);
      await here.end();
      await elsewhere.end();
    }
  });
});
