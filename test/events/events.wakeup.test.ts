/**
 * The feed's wake-up signal of a process (events/events.wakeup.ts), without HTTP: a commit made
 * while a reader is between its ticket and its wait is not missed; a stop ends every wait. And
 * which Accept headers ask for the stream (events/events.sse.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { announceCommit } from '../../src/db/commit-listeners.js';
import { numberWaitingEvents } from '../../src/events/events.sequencer.js';
import { createFeedWakeup, type FeedWakeup } from '../../src/events/events.wakeup.js';
import { wantsEventStream } from '../../src/events/events.sse.js';
import { createPet } from '../../src/pets/pets.service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { withDeadline } from '../helpers/wait-for.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events wake-up signal on ${dialect}`, {}, () => {
    let database: TestDatabase;
    let wakeup: FeedWakeup;
    before(async () => {
      database = await createTestDatabase(dialect);
      // The once-a-second check turned off: only commits wake.
      wakeup = createFeedWakeup({ db: database.db, log: pino({ level: 'silent' }), recheckMs: 3_600_000 });
    });
    after(async () => {
      wakeup.close();
      await database.drop();
    });

    it('a commit while the reader reads (after its ticket, before its wait) > its wait ends at once', async () => {
      const watch = wakeup.watch(new AbortController().signal);
      try {
        const ticket = watch.ticket();
        // The reader would be reading its page now: nobody waits yet, but it watches.
        await createPet(database.db, { name: 'Between', categoryId: 1 });
        assert.equal(await withDeadline(watch.changedSince(ticket), 5_000, 'the commit made during the read was missed'), true);
      } finally {
        watch.stop();
      }
    });

    it('a watch whose reader leaves > its wait in progress answers false, and so does every later one', async () => {
      const gone = new AbortController();
      const watch = wakeup.watch(gone.signal);
      const ticket = watch.ticket();
      const waiting = watch.changedSince(ticket);
      gone.abort();
      assert.equal(await withDeadline(waiting, 5_000, 'the reader left and its wait went on'), false);
      assert.equal(await watch.changedSince(ticket), false);
      watch.stop();
    });

    it('a watch stopped while it waits > its wait answers false, and so does a wait after the stop', async () => {
      const watch = wakeup.watch(new AbortController().signal);
      const waiting = watch.changedSince(watch.ticket());
      watch.stop();
      assert.equal(await withDeadline(waiting, 5_000, 'the stopped watch kept waiting'), false);
      assert.equal(await withDeadline(watch.changedSince(watch.ticket()), 5_000, 'a wait after the stop never ended'), false);
    });

    it('a second wait while one is pending > the first answers false; a move ends the second', async () => {
      const watch = wakeup.watch(new AbortController().signal);
      try {
        const ticket = watch.ticket();
        const first = watch.changedSince(ticket);
        const second = watch.changedSince(ticket);
        assert.equal(await withDeadline(first, 5_000, 'the first wait was left pending'), false);
        // A move of the feed: on PostgreSQL the event counts once numbered, and the numbering is told as a commit.
        await createPet(database.db, { name: 'Second wait', categoryId: 1 });
        await numberWaitingEvents(database.db);
        void announceCommit(database.db, { recordsEvents: false });
        assert.equal(await withDeadline(second, 5_000, 'the move did not end the second wait'), true);
      } finally {
        watch.stop();
      }
    });

    it('the app stopping > every wait answers false', async () => {
      const watches = [wakeup.watch(new AbortController().signal), wakeup.watch(new AbortController().signal)];
      const waiting = watches.map((watch) => watch.changedSince(watch.ticket()));
      wakeup.close();
      assert.deepEqual(await withDeadline(Promise.all(waiting), 5_000, 'the stop did not end the waits'), [false, false]);
      for (const watch of watches) watch.stop();
    });
  });
}

describe('wantsEventStream', () => {
  it('Accept > the stream only when text/event-stream is asked for, not below application/json', () => {
    assert.equal(wantsEventStream('text/event-stream'), true);
    assert.equal(wantsEventStream('text/event-stream, application/json;q=0.5'), true);
    assert.equal(wantsEventStream('TEXT/EVENT-STREAM;q=0.9, */*;q=0.1'), true);
    assert.equal(wantsEventStream(undefined), false);
    assert.equal(wantsEventStream('application/json'), false);
    assert.equal(wantsEventStream('*/*'), false);
    assert.equal(wantsEventStream('text/event-stream;q=0'), false);
    assert.equal(wantsEventStream('application/json, text/event-stream;q=0.5'), false);
    assert.equal(wantsEventStream('text/event-stream;q=abc'), false);
  });
});
