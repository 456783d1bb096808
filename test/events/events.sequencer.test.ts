/**
 * The events sequencer's scheduling (PostgreSQL: SQLite numbers an event as it is inserted). A
 * write that records events waits for the round that starts after its commit, and no longer than
 * the write wait; the timer runs a round only when a committed event waits for its position.
 * Rounds are held up by real means: another session holding the sequencers' lock or an event's row,
 * a link partitioned in the middle of a round. Where a test drives the sequencer itself, its timer
 * is set out of the way, so the only rounds are the ones the test causes.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { onCommit } from '../../src/db/commit-listeners.js';
import { createDb } from '../../src/db/create-db.js';
import type { Database } from '../../src/db/database.js';
import { numberWaitingEvents, SEQUENCER_LOCK_KEY, startEventSequencer } from '../../src/events/events.sequencer.js';
import { createPet } from '../../src/pets/pets.service.js';
import { startDatabaseProxy } from '../helpers/tcp-proxy.js';
import { createTestApp, logCollector, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';

/** The sequencers' lock, as events.sequencer.ts takes it. */
const SEQUENCER_LOCK = `select pg_advisory_xact_lock(${SEQUENCER_LOCK_KEY})`;
const ROUND_FAILED = 'could not number new events for the feed; trying again';
/** A timer that never fires within a test. */
const NO_TIMER_MS = 3_600_000;
/** Only a stuck wait fails on it; no test asserts how long anything took. */
const DEADLINE_MS = 15_000;

/** A session of the test's own on the store's database, outside the service's pool. */
async function session(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Every event of the store, in id order, with its position (null until numbered). */
async function events(db: Kysely<Database>): Promise<{ id: number; position: number | null }[]> {
  const rows = await db.selectFrom('events').select(['id', 'position']).orderBy('id').execute();
  return rows.map((row) => ({ id: Number(row.id), position: row.position === null ? null : Number(row.position) }));
}

/** Inserts a pet (and so its event) without telling the sequencer: as another instance or psql would. */
async function writeElsewhere(url: string, name: string): Promise<void> {
  const writer = await session(url);
  try {
    await writer.query("insert into pets (name, name_key, category_id, status, created_at) values ($1, lower($1), 1, 'available', 0)", [name]);
  } finally {
    await writer.end();
  }
}

describeOnPostgres('events sequencer on postgres > writes and rounds', {}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('postgres');
  });
  after(() => t.close());

  it("POST /v1/pets while another session holds the sequencers' lock > answered while the lock is still held; its event numbered only once the lock is released", async () => {
    const holder = await session(t.database.url);
    try {
      await holder.query('begin');
      await holder.query(SEQUENCER_LOCK);
      const response = await withDeadline(
        t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { name: 'Held back', categoryId: 1 },
        }),
        DEADLINE_MS,
        "the write was not answered while the sequencers' lock was held",
      );
      assert.equal(response.statusCode, 201, response.body);
      // Still held: no round can have numbered it.
      assert.deepEqual(
        (await events(t.database.db)).map((event) => event.position),
        [null],
      );
      await holder.query('commit');
      // The round of the write gave up; the timer's look finds the event and a round numbers it.
      await waitUntil(async () => (await events(t.database.db))[0]?.position !== null, {
        deadlineMs: DEADLINE_MS,
        what: 'the event was never numbered once the lock was released',
      });
    } finally {
      await holder.end();
    }
  });
});

describeOnPostgres('events sequencer on postgres > its own rounds', {}, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('postgres');
  });
  after(() => database.drop());

  it('a write that commits while a round is under way > waits for the next round: its event has a position when it is answered', async () => {
    const sequencer = startEventSequencer(database.db, pino({ level: 'silent' }), NO_TIMER_MS);
    const rowHolder = await session(database.url);
    let stopListening: (() => void) | undefined;
    try {
      // A round held in its numbering: another session locks a committed event's row.
      await writeElsewhere(database.url, 'Elsewhere');
      await rowHolder.query('begin');
      const { rows } = await rowHolder.query<{ pid: number }>('select pg_backend_pid() as pid from events where position is null for update');
      assert.equal(rows.length, 1);
      const holderPid = rows[0]!.pid;
      const underWay = sequencer.runNow();
      await waitUntil(
        async () =>
          (
            await sql<{
              blocked: boolean;
            }>`select exists (select 1 from pg_stat_activity where ${holderPid}::int = any(pg_blocking_pids(pid))) as blocked`.execute(database.db)
          ).rows[0]?.blocked === true,
        { deadlineMs: DEADLINE_MS, what: 'the round never reached the locked row' },
      );
      // The round under way read the events before this write committed; once it has, the row is let go.
      stopListening = onCommit(database.db, (commit) => (commit.recordsEvents ? rowHolder.query('rollback').then(() => {}) : undefined));
      const mine = await withDeadline(createPet(database.db, { name: 'Mine', categoryId: 1 }), DEADLINE_MS, 'the write was never answered');
      const stored = await events(database.db);
      assert.equal(stored.length, 2);
      assert.notEqual(stored[1]!.position, null, `pet ${mine.pet.id}'s event had no position when the write was answered`);
      await underWay;
    } finally {
      stopListening?.();
      await rowHolder.end();
      await sequencer.close();
    }
  });

  it('a write whose round is stuck past the write wait (the link partitioned in the round) > answered anyway while that round is still stuck, its event not numbered yet', async () => {
    const proxy = await startDatabaseProxy(database.url);
    // A statement timeout far beyond the test: nothing but the write wait ends the wait of the write.
    const linked = createDb(proxy.url, { poolMax: 2, statementTimeoutMs: 600_000 });
    const { logs, logStream } = logCollector();
    const sequencer = startEventSequencer(linked.db, pino({ level: 'info' }, logStream), NO_TIMER_MS);
    const earlier = (await events(database.db)).length;
    try {
      const partitioned = proxy.partitionAfter(/pg_advisory_xact_lock/);
      const { pet } = await withDeadline(
        createPet(linked.db, { name: 'Stuck round', categoryId: 1 }),
        DEADLINE_MS,
        'the write waited for a round that never ends',
      );
      await withDeadline(partitioned, DEADLINE_MS, 'no round ever took the lock');
      assert.deepEqual(
        logs.filter((line) => line.msg === ROUND_FAILED),
        [],
        'the round had ended when the write was answered',
      );
      const stored = await events(database.db);
      assert.equal(stored.length, earlier + 1);
      assert.equal(stored.at(-1)!.position, null, `pet ${pet.id}'s event was numbered`);
    } finally {
      // Every link cut: the stuck round fails at once and the sequencer stops.
      await proxy.close();
      await sequencer.close();
      await linked.close();
    }
  });

  it('an idle store > the timer only looks (one statement a tick) and runs no round; an event written elsewhere > the next look finds it and a round numbers it', async () => {
    const counts = { looks: 0, rounds: 0 };
    const counted = database.db.withPlugin({
      transformQuery: ({ node, queryId }) => {
        const text = database.db.getExecutor().compileQuery(node, queryId).sql;
        if (/position is null\) as waiting/.test(text)) counts.looks += 1;
        if (/pg_advisory_xact_lock/.test(text)) counts.rounds += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    // What the earlier tests left is numbered first: the store is idle from here on.
    await numberWaitingEvents(database.db);
    assert.ok((await events(database.db)).every((event) => event.position !== null));

    const sequencer = startEventSequencer(counted, pino({ level: 'silent' }), 5);
    try {
      await waitUntil(() => counts.looks + counts.rounds >= 5, { deadlineMs: DEADLINE_MS, what: 'the timer never ticked five times' });
      assert.equal(counts.rounds, 0, `${counts.rounds} rounds on an idle store`);
      await writeElsewhere(database.url, 'Written elsewhere');
      await waitUntil(async () => (await events(database.db)).every((event) => event.position !== null), {
        deadlineMs: DEADLINE_MS,
        what: 'the event written elsewhere was never numbered',
      });
      assert.ok(counts.rounds >= 1);
    } finally {
      await sequencer.close();
    }
  });
});
