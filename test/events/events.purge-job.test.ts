/**
 * The events' purge job (events/events.purge-job.ts) in a real app: it purges on its schedule
 * with no request involved, by EVENT_RETENTION_DAYS and the database's clock; a failed run is
 * logged and the next one works; closing the app stops it. The schedule is the test's hand (runs
 * when told), so nothing waits for a minute to pass.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import type { PurgeSchedule } from '../../src/events/events.purge-job.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const DAY_MS = 86_400_000;

/** A schedule run by hand: `tick()` runs the job as its timer would, and says whether it is stopped. */
function handSchedule(): PurgeSchedule & { tick(): Promise<void>; stopped: boolean; intervalMs?: number } {
  let run: (() => Promise<void>) | undefined;
  const schedule = {
    stopped: false,
    intervalMs: undefined as number | undefined,
    every(intervalMs: number, job: () => Promise<void>) {
      schedule.intervalMs = intervalMs;
      run = job;
      return { stop: () => void (schedule.stopped = true) };
    },
    tick: () => run!(),
  };
  return schedule;
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the events' purge job on ${dialect}`, {}, () => {
    let t: TestApp;
    const schedule = handSchedule();
    before(async () => {
      t = await createTestApp(dialect, { env: { EVENT_RETENTION_DAYS: '7' }, hooks: { eventPurgeSchedule: schedule } });
    });
    after(() => t.close());

    const db = () => t.database.db;
    const eventIds = async () => (await db().selectFrom('events').select('id').orderBy('id').execute()).map((row) => row.id);
    const createPet = async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: { name: 'Rex', categoryId: 1 },
      });
      assert.equal(response.statusCode, 201);
    };
    const age = (days: number) =>
      db()
        .updateTable('events')
        .set((eb) => ({ occurredAt: eb('occurredAt', '-', days * DAY_MS) }))
        .execute();

    it('each run > purges the events older than EVENT_RETENTION_DAYS, by the database clock, with no request', async () => {
      assert.equal(schedule.intervalMs, 60_000, 'every minute');
      await createPet();
      await age(8);
      await createPet();
      await age(6);
      const [, kept] = await eventIds();
      // The app's clock moved years ahead changes nothing: the purge reads the database's.
      t.clock.now += 3650 * DAY_MS;
      await schedule.tick();
      assert.deepEqual(await eventIds(), [kept]);
    });

    it('a run that meets a database error > logged, and the next run purges', async () => {
      await createPet();
      await age(30);
      await sql`alter table events_retention rename to events_retention_away`.execute(db());
      try {
        await schedule.tick();
      } finally {
        await sql`alter table events_retention_away rename to events_retention`.execute(db());
      }
      const line = await t.waitForLog((entry) => entry.msg === 'purging old events failed; next try in a minute');
      assert.equal(line.level, 40);
      assert.notDeepEqual(await eventIds(), []);
      await schedule.tick();
      assert.deepEqual(await eventIds(), []);
    });

    it('closing the app > stops the schedule; a run due afterwards does nothing', async () => {
      await createPet();
      await age(30);
      await t.app.close();
      assert.equal(schedule.stopped, true);
      await schedule.tick();
      assert.equal((await eventIds()).length, 1);
    });
  });
}
