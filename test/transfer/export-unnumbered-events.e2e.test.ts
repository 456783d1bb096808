/**
 * A PostgreSQL export taken while an event is committed but not yet numbered by the sequencer (its
 * lock held by another session, as a stalled sequencer would): the export says so, writes the
 * event without a position, and the import, on either database, numbers it after every other
 * event. On SQLite it used to take its id as position, which another event's position held.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { numberWaitingEvents, SEQUENCER_LOCK_KEY } from '../../src/events/events.sequencer.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../helpers/test-db.js';

describeOnPostgres('animal-store export of events not yet numbered', { timeout: SUITE_STUCK_MS }, () => {
  let source: TestDatabase;
  let exported: string;
  let stderr: string;
  const stores: TestDatabase[] = [];

  before(async () => {
    source = await createTestDatabase('postgres');
    stores.push(source);
    for (let i = 0; i < 3; i++) await insertPet(source.db, { name: `Rex ${i}`, categoryId: 7, status: 'available', createdAt: 1_800_000_000_000 + i });
    await numberWaitingEvents(source.db);
    // Positions one above the ids, as after a purge or an upgraded store: the next event's id is a position already given.
    // In two steps: the unique index is checked row by row.
    await sql`update events set position = -position`.execute(source.db);
    await sql`update events set position = 1 - position`.execute(source.db);
    const holder = new pg.Client({ connectionString: source.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(${SEQUENCER_LOCK_KEY})`);
      await insertPet(source.db, { name: 'Late', categoryId: 7, status: 'available', createdAt: 1_800_000_000_010 });
      const result = await runCli(['export'], { DATABASE_URL: source.url });
      assert.equal(result.code, 0, result.stderr);
      exported = result.stdout;
      stderr = result.stderr;
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });
  after(async () => {
    for (const store of stores) await store.drop();
  });

  it('export > an event committed but not numbered > is written without a position, and the summary says so', () => {
    const events = exported
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.kind === 'event');
    assert.deepEqual(
      events.map((event) => event.position),
      [2, 3, 4, null],
    );
    assert.match(
      stderr,
      /1 event\(s\) committed as the export began had no feed position yet: they are in the file without one, and the import numbers them after all the others\./,
    );
  });

  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`import > on ${dialect} > numbers that event after every other, and the store exports with every position`, async () => {
      const target = await createTestDatabase(dialect);
      stores.push(target);
      const result = await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: exported }));
      assert.equal(result.code, 0, result.stderr);
      const positions = await target.db.selectFrom('events').select(['id', 'position']).orderBy('id').execute();
      assert.deepEqual(
        positions.map((event) => event.position),
        [2, 3, 4, 5],
      );
      // A new event takes the next position.
      await insertPet(target.db, { name: 'After', categoryId: 7, status: 'available', createdAt: 1_800_000_000_020 });
      await numberWaitingEvents(target.db);
      const newest = await target.db.selectFrom('events').select('position').orderBy('position', 'desc').limit(1).executeTakeFirstOrThrow();
      assert.equal(newest.position, 6);
    });
  }
});
