/**
 * The feed's exactness across real processes: `--workers 3` on one SQLite file, and three
 * instances on one PostgreSQL database. Writers on every process, readers walking the feed
 * meanwhile; every reader must see every committed event once, in the database's position order.
 * On PostgreSQL, a transaction left open delays no other event for readers on other instances.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const WRITES = 150;
const READERS = 3;
const ENV = { RATE_LIMIT_PER_MINUTE: '10000000', DATABASE_POOL_MAX: '5' };

async function call(service: RunningService, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${text}`);
  return { body: text === '' ? undefined : JSON.parse(text), link: response.headers.get('link') ?? '' };
}

for (const dialect of ALL_DIALECTS) {
  const shape = dialect === 'sqlite' ? '--workers 3 on one SQLite file' : 'three instances on one PostgreSQL database';
  describeOnDialect(dialect, `the events feed across processes: ${shape}`, { timeout: SUITE_STUCK_MS }, () => {
    let fleet: Fleet;
    let key: string;
    let handle: DbHandle;

    before(async () => {
      // SQLite: one instance with three workers on one file; PostgreSQL: three instances.
      fleet = await startFleet(
        dialect === 'sqlite' ? { dialect, instances: 1, workers: 3, env: ENV, keyName: 'events' } : { dialect, instances: 3, env: ENV, keyName: 'events' },
      );
      key = fleet.key;
      handle = createDb(fleet.databaseUrl, { poolMax: 1 });
    });
    after(async () => {
      await handle?.close();
      await fleet?.stop();
    });

    const on = (i: number) => fleet.at(i);

    it(`${WRITES} concurrent changes on every process, ${READERS} readers walking meanwhile > every reader sees every committed event once, in the database's order`, async () => {
      let done = false;
      let total = 0;
      const walk = async (reader: number) => {
        const seen: number[] = [];
        let next = `/v1/events?limit=${[3, 20, 100][reader % 3]}`;
        let emptyAfterDone = 0;
        while (!(done && seen.length >= total)) {
          assert.ok(emptyAfterDone < 20, `reader ${reader} is stuck at ${seen.length} of ${total} events`);
          const wasDone = done;
          // Once the writes are over, a long poll: a transaction of another suite on the same server can
          // hold the visible bound back for a while (PostgreSQL), and an empty page is no sign of a miss.
          const page = await call(on(reader), 'GET', wasDone ? `${next}&wait=2` : next, key);
          if (wasDone && page.body.length === 0) emptyAfterDone += 1;
          seen.push(...(page.body as { id: number }[]).map((event) => event.id));
          next = /^<([^>]+)>; rel="next"$/.exec(page.link)?.[1] ?? assert.fail(`no next link: ${page.link}`);
        }
        return seen;
      };
      const readers = Array.from({ length: READERS }, (_, r) => walk(r));
      await Promise.all(
        Array.from({ length: WRITES / 3 }, async (_, n) => {
          const pet = await call(on(n), 'POST', '/v1/pets', key, { name: `Pet ${n}`, categoryId: 1 });
          const order = await call(on(n + 1), 'POST', '/v1/store/orders', key, { petId: pet.body.id });
          await call(on(n + 2), 'POST', `/v1/store/orders/${order.body.id}/${n % 2 === 0 ? 'cancel' : 'approve'}`, key);
        }),
      );
      const stored = (await handle.db.selectFrom('events').select('id').orderBy('position').execute()).map((row) => row.id);
      total = stored.length;
      done = true;
      // pet.created, pet.updated and order.placed, then the action and (for a cancel) pet.updated again.
      assert.equal(total, (WRITES / 3) * 4 + Math.ceil(WRITES / 6));
      for (const [r, ids] of (await Promise.all(readers)).entries()) {
        assert.equal(new Set(ids).size, ids.length, `reader ${r} saw an event twice`);
        assert.deepEqual(ids, stored, `reader ${r} saw another order or missed events`);
      }
    });

    if (dialect === 'postgres') {
      it('a transaction left open in the same database > readers on other instances get every other event while it stays open, and its own once it commits', async () => {
        const start = await call(on(1), 'GET', '/v1/events?start=latest', key);
        let next = /^<([^>]+)>; rel="next"$/.exec(start.link)![1]!;
        const seen: string[] = [];
        const readUntil = async (names: string[]) => {
          while (!names.every((name) => seen.includes(name))) {
            const page = await call(on(1), 'GET', `${next}&wait=5`, key);
            seen.push(
              ...(page.body as { type: string; data: { name: string } }[]).filter((event) => event.type === 'pet.created').map((event) => event.data.name),
            );
            next = /^<([^>]+)>; rel="next"$/.exec(page.link)![1]!;
          }
        };
        const open = new pg.Client({ connectionString: fleet.databaseUrl });
        await open.connect();
        try {
          await open.query('begin');
          await open.query("insert into pets (name, name_key, category_id, status, created_at) values ('Held open', 'held open', 1, 'available', 0)");
          const names = Array.from({ length: 10 }, (_, n) => `While open ${n}`);
          for (const name of names) await call(on(2), 'POST', '/v1/pets', key, { name, categoryId: 1 });
          await readUntil(names);
          assert.deepEqual(seen, names, 'every other event, in order, while the transaction is open');
          await open.query('commit');
          await readUntil(['Held open']);
          assert.deepEqual(seen, [...names, 'Held open']);
        } finally {
          await open.end();
        }
      });
    }
  });
}
