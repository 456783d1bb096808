/**
 * The pace of catching-up streams (events.catch-up.ts): turns never closer than the process's and
 * the key's pace, one key's streams cannot take every turn, and an abort gives a turn up. The
 * clock is held still and the waits are recorded, not slept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATCH_UP_PAGES_PER_SECOND, createCatchUpPace, KEY_PAGES_PER_SECOND } from '../../src/events/events.catch-up.js';
import { readPublishedDoc } from '../helpers/published-docs.js';

function pacedAt(clock: { now: number }, rates: { pagesPerSecond: number; keyPagesPerSecond: number }) {
  const waits: number[] = [];
  const pace = createCatchUpPace({
    ...rates,
    now: () => clock.now,
    // A turn waited for is a turn whose time has come: the clock moves to it.
    wait: async (ms) => {
      waits.push(ms);
      clock.now += ms;
      return true;
    },
  });
  return { pace, waits };
}

/** A clock the test moves by hand; waits end when it passes their time. */
function manualClock() {
  let now = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  return {
    now: () => now,
    wait: (ms: number) => new Promise<boolean>((resolve) => sleepers.push({ at: now + ms, wake: () => resolve(true) })),
    async advanceTo(time: number) {
      now = time;
      for (const sleeper of sleepers.splice(0).sort((a, b) => a.at - b.at)) {
        if (sleeper.at <= now) sleeper.wake();
        else sleepers.push(sleeper);
      }
      // Let the woken turns book their next step.
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
  };
}

describe('catch-up pace', () => {
  const open = new AbortController().signal;

  it("turns of one key > spaced by the key's pace; the first is free", async () => {
    const { pace, waits } = pacedAt({ now: 1000 }, { pagesPerSecond: 100, keyPagesPerSecond: 10 });
    for (let i = 0; i < 4; i++) assert.equal(await pace.turn(1, open), true);
    assert.deepEqual(waits, [100, 100, 100]);
  });

  it("turns of many keys > together spaced by the process's pace, in the order asked", async () => {
    const { pace, waits } = pacedAt({ now: 1000 }, { pagesPerSecond: 100, keyPagesPerSecond: 20 });
    for (let key = 1; key <= 5; key++) await pace.turn(key, open);
    assert.deepEqual(waits, [10, 10, 10, 10]);
    // The first key's next turn: its own pace (50 ms after its first) comes after the process's next (at 50 ms too).
    await pace.turn(1, open);
    assert.deepEqual(waits.at(-1), 10);
  });

  it("one key's streams queued far ahead > another key still gets the process's next turn, not one after them", async () => {
    const clock = manualClock();
    const pace = createCatchUpPace({ pagesPerSecond: 100, keyPagesPerSecond: 20, now: clock.now, wait: clock.wait });
    const given: Record<string, number> = {};
    const take = (name: string, key: number) => void pace.turn(key, open).then(() => (given[name] = clock.now()));
    for (const name of ['a1', 'a2', 'a3']) take(name, 1);
    take('b1', 2);
    for (const time of [0, 10, 50, 60, 100, 110]) await clock.advanceTo(time);
    // Key 1's turns at 0, 50 and 100 (its own pace); key 2's at the process's next free turn, 10 ms.
    assert.deepEqual(given, { a1: 0, b1: 10, a2: 50, a3: 100 });
  });

  it('time passing > a key that read nothing for a while gets its turn at once', async () => {
    const clock = { now: 1000 };
    const { pace, waits } = pacedAt(clock, { pagesPerSecond: 100, keyPagesPerSecond: 10 });
    await pace.turn(1, open);
    clock.now += 500;
    await pace.turn(1, open);
    assert.deepEqual(waits, []);
  });

  it('an abort while waiting > the turn is given up and answers false', async () => {
    const pace = createCatchUpPace({ pagesPerSecond: 1, keyPagesPerSecond: 1, now: () => 0 });
    assert.equal(await pace.turn(1, open), true);
    const controller = new AbortController();
    const waiting = pace.turn(1, controller.signal);
    controller.abort();
    assert.equal(await waiting, false);
  });
});

describe('catch-up pace > published', () => {
  it('docs/api.md > quotes the pace the service applies', () => {
    const text = readPublishedDoc('docs/api.md').replace(/\s+/g, ' ');
    assert.ok(
      text.includes(
        `at most ${KEY_PAGES_PER_SECOND} pages of up to 100 events a second for one key's streams and ${CATCH_UP_PAGES_PER_SECOND} for all keys together`,
      ),
    );
  });
});
