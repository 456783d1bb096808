/**
 * Live readers at the same place share one read (events.live.ts `sharedPageReads`): a commit wakes
 * every waiting reader at once, and the streams at the feed's end all ask for the same next page.
 * The reads are the feed's own (`readWalkPage`) on a real database, counted as they start; a reader
 * joins only a read begun at its own ticket, so one woken by a later move reads anew.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { CURSOR_EXPIRED_MESSAGE } from '../../src/events/events.cursor.js';
import { sharedPageReads } from '../../src/events/events.live.js';
import { type EventWalk, readWalkPage, startWalk } from '../../src/events/events.service.js';
import { numberWaitingEvents } from '../../src/events/events.sequencer.js';
import { createPet as createPetRow } from '../../src/pets/pets.service.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

const SECRET = 'a cursor secret of the test, long enough';

/** A pet and its event, in the feed (PostgreSQL: numbered as a service's sequencer would). */
async function createPet(store: TestDatabase, name: string): Promise<void> {
  await createPetRow(store.db, { name, categoryId: 1 });
  await numberWaitingEvents(store.db);
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `live readers share their reads on ${dialect}`, {}, () => {
    let store: TestDatabase;
    let walk: EventWalk;
    before(async () => {
      store = await createTestDatabase(dialect);
      await createPet(store, 'First');
      walk = await startWalk(store.db, { limit: 100 }, SCOPES, SECRET);
    });
    after(() => store.drop());

    /** The feed's reads, counted as each starts; each reads once `gate` has opened (open unless given). */
    function counted(gate: Promise<void> = Promise.resolve()) {
      const started: EventWalk[] = [];
      const pages = sharedPageReads(async (asked) => {
        started.push(asked);
        await gate;
        return readWalkPage(store.db, asked);
      });
      return { pages, started };
    }

    it('readers asking for the same page at the same ticket > one read, the same page for each', async () => {
      const { pages, started } = counted();
      const answers = await Promise.all(Array.from({ length: 50 }, () => pages.read(walk, 7)));
      assert.equal(started.length, 1);
      assert.equal(answers[0]!.events.length, 1);
      for (const answer of answers) assert.equal(answer, answers[0]);
    });

    it('a reader woken by a move after a read began (a later ticket) > never joins that read: it reads anew', async () => {
      let open!: () => void;
      const { pages, started } = counted(new Promise<void>((resolve) => (open = resolve)));
      // Still in flight when the move comes.
      const earlier = pages.read(walk, 7);
      await createPet(store, 'Second');
      const woken = pages.read(walk, 8);
      assert.equal(started.length, 2);
      open();
      assert.notEqual(await woken, await earlier);
      assert.equal((await woken).events.at(-1)?.data.id, (await readWalkPage(store.db, walk)).events.at(-1)?.data.id);
      assert.equal((await woken).events.length, 2);
    });

    it('readers of another place, another filter or another limit > reads of their own', async () => {
      const { pages, started } = counted();
      const petsOnly: EventWalk = { ...walk, types: ['pet.created'] };
      await Promise.all([
        pages.read(walk, 7),
        pages.read({ ...walk, after: walk.after + 1 }, 7),
        pages.read(petsOnly, 7),
        pages.read({ ...walk, limit: 5 }, 7),
        pages.read({ ...walk, resumed: !walk.resumed }, 7),
      ]);
      assert.equal(started.length, 5);
    });

    it('a read that has ended > the next reader reads anew', async () => {
      const { pages, started } = counted();
      await pages.read(walk, 7);
      await pages.read(walk, 7);
      assert.equal(started.length, 2);
    });

    it('a read that fails > fails every reader who joined it, not the next', async () => {
      let reads = 0;
      const pages = sharedPageReads(async (asked) => {
        reads += 1;
        if (reads === 1) throw new Error('the connection was lost');
        return readWalkPage(store.db, asked);
      });
      const joined = await Promise.allSettled([pages.read(walk, 7), pages.read(walk, 7)]);
      assert.deepEqual(
        joined.map((answer) => answer.status),
        ['rejected', 'rejected'],
      );
      assert.equal(reads, 1);
      assert.ok((await pages.read(walk, 7)).events.length >= 1);
      assert.equal(reads, 2);
    });

    it("the feed's own refusal (410) > the same answer for every reader who joined", async () => {
      let reads = 0;
      const pages = sharedPageReads(async () => {
        reads += 1;
        throw new AppError('cursor_expired', CURSOR_EXPIRED_MESSAGE);
      });
      const answers = await Promise.allSettled([pages.read(walk, 7), pages.read(walk, 7), pages.read(walk, 7)]);
      assert.deepEqual(
        answers.map((answer) => answer.status === 'rejected' && (answer.reason as AppError).code),
        ['cursor_expired', 'cursor_expired', 'cursor_expired'],
      );
      assert.equal(reads, 1);
    });
  });
}
