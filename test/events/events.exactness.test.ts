/**
 * The feed is exact under concurrency: writers on several instances (app instances with their own
 * connections to one database: separate pools on PostgreSQL, separate connections to one file on
 * SQLite, which lock each other as processes do) while readers walk the feed with varied page
 * sizes. Every reader must see every committed event exactly once, in the same order, and that
 * order must be the database's position order. On PostgreSQL, transactions held open on purpose
 * commit after younger ones, which is what loses events in an "id greater than the last seen" feed.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { RECORDS_EVENTS, writeTransaction } from '../../src/db/dialect.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect, describeOnPostgres } from '../helpers/test-db.js';

const INSTANCES = 3;
const WORKFLOWS = 60;
const READERS = 4;
const NO_QUOTA = { RATE_LIMIT_PER_MINUTE: '10000000' };

interface Event {
  id: number;
  type: string;
}

/** A latch: resolves once `open` is called. */
function latch(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the events feed under concurrent writers on ${dialect}`, {}, () => {
    const apps: TestApp[] = [];
    before(async () => {
      // Readers ask again as soon as an answer comes: no quota may stop them.
      apps.push(await createTestApp(dialect, { env: NO_QUOTA }));
      for (let i = 1; i < INSTANCES; i++) {
        // Another instance: its own connections to the same data; closing it leaves the data to the first.
        const handle = createDb(apps[0]!.database.url, { poolMax: 5 });
        apps.push(await createTestApp(dialect, { env: NO_QUOTA, database: { ...handle, url: apps[0]!.database.url, drop: () => handle.close() } }));
      }
    });
    after(async () => {
      for (const app of apps.reverse()) await app.close();
    });

    const json = { 'content-type': 'application/json' };
    const on = (i: number) => apps[i % INSTANCES]!;
    const send = async (i: number, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
      const app = on(i);
      const headers =
        payload === undefined ? app.auth : { ...app.auth, 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : json['content-type'] };
      const response = await app.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
      assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.body === '' ? undefined : response.json();
    };

    /** One writer's story, on instances chosen by its number: each step is a committed change. */
    const workflow = async (n: number) => {
      const pet = await send(n, 'POST', '/v1/pets', { name: `Pet ${n}`, categoryId: 1 + (n % 4) });
      if (n % 5 === 0) return send(n + 1, 'DELETE', `/v1/pets/${pet.id}`);
      if (n % 5 === 1) return send(n + 2, 'PATCH', `/v1/pets/${pet.id}`, { name: `Renamed ${n}` });
      const order = await send(n + 1, 'POST', '/v1/store/orders', { petId: pet.id });
      if (n % 5 === 2) return send(n + 2, 'POST', `/v1/store/orders/${order.id}/cancel`);
      await send(n + 2, 'POST', `/v1/store/orders/${order.id}/approve`);
      return send(n, 'POST', `/v1/store/orders/${order.id}/deliver`);
    };

    /** A pet inserted in a transaction that stays open until `until`, on instance k. */
    const lateWriter = (k: number, until: Promise<void>) =>
      writeTransaction(
        on(k).database.db,
        async (trx) => {
          await insertPet(trx, { name: `Late ${k}`, categoryId: 1, status: 'available', createdAt: Date.now() });
          await until;
        },
        RECORDS_EVENTS,
      );

    /** Follows the feed from its start until it has `total()` events, once the writers are done. */
    const walk = async (reader: number, done: () => boolean, total: () => number): Promise<number[]> => {
      const seen: number[] = [];
      const app = on(reader);
      let next = `/v1/events?limit=${[1, 7, 20, 100][reader % 4]}`;
      // Once the writers are done every event is settled: an empty answer then means events were missed.
      let emptyAfterDone = 0;
      while (!(done() && seen.length >= total())) {
        assert.ok(emptyAfterDone < 20, `reader ${reader} is stuck at ${seen.length} of ${total()} events`);
        const wasDone = done();
        const response = await app.app.inject({ method: 'GET', url: next, headers: app.auth });
        assert.equal(response.statusCode, 200, response.body);
        const events = response.json() as Event[];
        if (wasDone && events.length === 0) emptyAfterDone += 1;
        seen.push(...events.map((event) => event.id));
        next = nextLinkOf(response.headers.link)!;
        assert.ok(next, 'every answer carries a next link');
        await new Promise((resolve) => setImmediate(resolve));
      }
      return seen;
    };

    it(`${WORKFLOWS} writers on ${INSTANCES} instances, ${READERS} readers walking meanwhile > every committed event seen once, in the database's order, by every reader`, async () => {
      const db = apps[0]!.database.db;
      const before = (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow()
      ).count;
      assert.equal(Number(before), 0);
      let done = false;
      let total = 0;
      const readers = Array.from({ length: READERS }, (_, r) =>
        walk(
          r,
          () => done,
          () => total,
        ),
      );
      const finished = Array.from({ length: WORKFLOWS }, () => latch());
      const writers = Array.from({ length: WORKFLOWS }, (_, n) => workflow(n).finally(() => finished[n]!.open()));
      // PostgreSQL: transactions that draw their txn early and commit only after younger writers
      // have committed. (On SQLite one open write transaction would only make the others wait.)
      const late =
        dialect === 'postgres' ? Array.from({ length: WORKFLOWS / 10 }, (_, k) => lateWriter(k, finished[Math.min(WORKFLOWS - 1, k * 10 + 5)]!.wait)) : [];
      await Promise.all([...writers, ...late]);
      // Stored order: what every reader must have seen, exactly.
      const stored = (await db.selectFrom('events').select(['id', 'position', 'type']).orderBy('position').execute()).map((row) => row.id);
      total = stored.length;
      done = true;
      const walks = await Promise.all(readers);
      for (const [r, ids] of walks.entries()) {
        assert.equal(new Set(ids).size, ids.length, `reader ${r} saw an event twice`);
        assert.deepEqual(ids, stored, `reader ${r} saw the events in another order or missed some`);
      }
      // And the database holds one event per committed change: a pet.created per pet made.
      const created = await db.selectFrom('events').select('id').where('type', '=', 'pet.created').execute();
      assert.equal(created.length, WORKFLOWS + late.length);
    });
  });
}

describeOnPostgres('the events feed and transactions that commit late on postgres', {}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
  });
  after(() => t.close());

  const read = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: t.auth });
    assert.equal(response.statusCode, 200, response.body);
    return { events: response.json() as (Event & { data: { name: string } })[], next: nextLinkOf(response.headers.link)! };
  };

  it('an older transaction still open > younger committed events are readable at once; the older one comes after them once it commits; start=latest does not skip it', async () => {
    const inserted = latch();
    const commit = latch();
    const older = writeTransaction(
      t.database.db,
      async (trx) => {
        await insertPet(trx, { name: 'Older', categoryId: 1, status: 'available', createdAt: Date.now() });
        inserted.open();
        await commit.wait;
      },
      RECORDS_EVENTS,
    );
    await inserted.wait;
    const latest = await read('/v1/events?start=latest');
    let held: Awaited<ReturnType<typeof read>>;
    try {
      const younger = await t.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: { name: 'Younger', categoryId: 1 },
      });
      assert.equal(younger.statusCode, 201);
      // Answered: its event is in the feed, whatever is still open.
      held = await read('/v1/events');
      assert.deepEqual(
        held.events.map((e) => e.data.name),
        ['Younger'],
      );
    } finally {
      commit.open();
      await older;
    }
    const after = await read(held.next);
    assert.deepEqual(
      after.events.map((e) => e.data.name),
      ['Older'],
    );
    assert.deepEqual(
      (await read(latest.next)).events.map((e) => e.data.name),
      ['Younger', 'Older'],
    );
  });
});
