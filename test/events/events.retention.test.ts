/**
 * Retention of the feed: the purge removes only old events, a prefix of the feed in bounded
 * batches, also on two instances at once; a cursor whose next events were purged answers 410
 * `cursor_expired`, an idle cursor that missed nothing goes on, a reader without cursor starts at
 * the oldest event kept; a purge running while readers walk never makes one skip an event silently.
 * Tests give the purge its cutoff and age events by hand: nothing waits for days to pass.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { databaseNowMs } from '../../src/db/dialect.js';
import { purgeEventsBefore, readPurged } from '../../src/events/events.retention.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const DAY_MS = 86_400_000;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events retention on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '10000000' } });
    });
    after(() => t.close());

    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
    const read = async (url: string) => {
      const response = await get(url);
      assert.equal(response.statusCode, 200, response.body);
      return { ids: (response.json() as { id: number }[]).map((event) => event.id), next: nextLinkOf(response.headers.link)! };
    };
    const createPets = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { name: `Pet ${i}`, categoryId: 1 },
        });
        assert.equal(response.statusCode, 201, response.body);
      }
    };
    const eventPositions = async () => (await t.database.db.selectFrom('events').select('position').orderBy('position').execute()).map((row) => row.position);
    /** Makes every event stored now `days` older, as if written then. */
    const age = async (days: number) => {
      await t.database.db
        .updateTable('events')
        .set((eb) => ({ occurredAt: eb('occurredAt', '-', days * DAY_MS) }))
        .execute();
    };
    const cutoff = async () => (await databaseNowMs(t.database.db)) - 30 * DAY_MS;
    const purgeAll = async () => purgeEventsBefore(t.database.db, (await databaseNowMs(t.database.db)) + DAY_MS);

    it('purge > deletes only the events older than the cutoff, at most batchSize × maxBatches a run, oldest first', async () => {
      await purgeAll();
      await createPets(5);
      await age(40);
      await createPets(2);
      const [old, young] = [(await eventPositions()).slice(0, 5), (await eventPositions()).slice(5)];
      assert.equal(await purgeEventsBefore(t.database.db, await cutoff(), { batchSize: 2, maxBatches: 2 }), 4, 'two batches of two');
      assert.deepEqual(await eventPositions(), [...old.slice(4), ...young]);
      assert.equal(await purgeEventsBefore(t.database.db, await cutoff(), { batchSize: 2 }), 1);
      assert.deepEqual(await eventPositions(), young);
      assert.equal((await readPurged(t.database.db)).position, old[4], 'the purged position is the newest purged event');
      assert.equal(await purgeEventsBefore(t.database.db, await cutoff(), { batchSize: 2 }), 0, 'nothing left old enough');
    });

    it('purge on two instances at once > every old event deleted once, the position at the last one, no error', async () => {
      await purgeAll();
      await createPets(30);
      await age(40);
      const old = await eventPositions();
      const handle = createDb(t.database.url, { poolMax: 2 });
      try {
        const counts = await Promise.all([
          purgeEventsBefore(t.database.db, await cutoff(), { batchSize: 3 }),
          purgeEventsBefore(handle.db, await cutoff(), { batchSize: 3 }),
        ]);
        assert.equal(counts[0]! + counts[1]!, old.length);
      } finally {
        await handle.close();
      }
      assert.deepEqual(await eventPositions(), []);
      assert.equal((await readPurged(t.database.db)).position, old.at(-1));
    });

    it('a cursor whose next events were purged > 410 cursor_expired; an idle cursor that missed nothing > goes on; no cursor > the oldest kept', async () => {
      await purgeAll();
      const start = (await read('/v1/events?start=latest')).next;
      await createPets(3);
      const first = await read(start.replace('limit=20', 'limit=1'));
      const second = await read(first.next);
      const third = await read(second.next);
      assert.equal(third.ids.length, 1);
      const idle = (await read(third.next)).next;

      await age(40);
      assert.equal(await purgeEventsBefore(t.database.db, await cutoff()), 3);
      for (const behind of [start, first.next, second.next]) {
        assertErrorBody(await get(behind), { status: 410, code: 'cursor_expired', message: /events after this cursor were purged/ });
      }
      const stillIdle = await read(idle);
      assert.deepEqual(stillIdle.ids, [], 'the idle cursor missed nothing: it goes on');
      assert.equal(stillIdle.next, idle);
      // Every event purged: a new reader, without a cursor or from the newest, stands where the purge ended.
      for (const url of ['/v1/events', '/v1/events?start=latest']) {
        const empty = await read(url);
        assert.deepEqual(empty.ids, []);
        assert.deepEqual((await read(empty.next)).ids, [], `${url}: its cursor is valid after a purge`);
      }

      await createPets(1);
      const [newest] = await eventPositions();
      assert.deepEqual((await read(idle)).ids, [newest]);
      assert.deepEqual((await read('/v1/events')).ids, [newest], 'without a cursor: the oldest event kept');
    });

    it('a purge while readers walk > each reader sees the events in order with no gap, until the end or a 410', async () => {
      await purgeAll();
      const start = (await read('/v1/events?start=latest&limit=3')).next;
      await createPets(60);
      const expected = await eventPositions();
      const walk = async () => {
        const seen: number[] = [];
        for (let next = start, pages = 0; pages < 100; pages++) {
          const response = await get(next);
          if (response.statusCode === 410) return { seen, expired: true };
          assert.equal(response.statusCode, 200, response.body);
          const ids = (response.json() as { id: number }[]).map((event) => event.id);
          if (ids.length === 0) return { seen, expired: false };
          seen.push(...ids);
          next = nextLinkOf(response.headers.link)!;
        }
        throw new Error('the walk did not end');
      };
      const [purged, ...walks] = await Promise.all([
        purgeEventsBefore(t.database.db, (await databaseNowMs(t.database.db)) + DAY_MS, { batchSize: 4, maxBatches: 1000 }),
        walk(),
        walk(),
        walk(),
        walk(),
      ]);
      assert.equal(purged, expected.length);
      for (const { seen, expired } of walks) {
        assert.deepEqual(seen, expected.slice(0, seen.length), 'a reader sees the feed from its start, with no gap');
        if (!expired) assert.equal(seen.length, expected.length, 'a walk that did not get 410 saw every event');
      }
    });
  });
}
