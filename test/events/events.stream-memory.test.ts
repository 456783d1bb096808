/**
 * A stream catching up waits for its turn between pages (events.catch-up.ts): with 200 streams,
 * about two seconds each. A page it has written must not be held through that wait: the pages
 * of 200 waiting streams outlived the young generation, and the catch-up benchmark saw RSS grow
 * by 100 MB and a 100-ms collection at the end. The page is watched with a WeakRef while its
 * stream waits, after a full collection.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTask } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { Event } from '../../src/events/events.schemas.js';
import { streamWalk } from '../../src/events/events.live.js';
import type { EventWalk, WalkPage } from '../../src/events/events.service.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function fullPage(): WalkPage {
  const events = Array.from(
    { length: 100 },
    (_, i) => ({ id: i + 1, type: 'pet.created', occurredAt: new Date(0).toISOString(), data: { id: i + 1 } }) as unknown as Event,
  );
  return { events, positions: events.map((_, i) => i + 1), next: 100, more: true };
}

it('a stream waiting for its turn to catch up holds neither the page it wrote nor its first one', async () => {
  let frames = 0;
  let turnAsked!: () => void;
  let giveTurn!: (go: boolean) => void;
  const waitingForTurn = new Promise<void>((resolve) => (turnAsked = resolve));
  const walk: EventWalk = { after: 0, types: undefined, limit: 100, resumed: false, startsLatest: false, cursorOf: (position) => `c${position}` };
  // Made in a function of its own, so nothing in this test's frame holds the page.
  const start = () => {
    const page = fullPage();
    const watched = new WeakRef(page);
    const streaming = streamWalk(
      {} as Kysely<Database>,
      walk,
      { write: async (text) => void (frames += text.split('\ndata: ').length - 1) },
      {
        opening: { watch: { ticket: () => 0, changedSince: async () => false, stop: () => {} }, ticket: 0, page },
        until: new AbortController().signal,
        stillAllowed: async () => true,
        // The stream waits here for its turn, as one of 200 would; held, as a timer holds a real turn.
        catchUp: () =>
          new Promise<boolean>((resolve) => {
            giveTurn = resolve;
            turnAsked();
          }),
      },
    );
    return { watched, streaming };
  };
  const { watched, streaming } = start();
  await waitingForTurn;
  assert.equal(frames, 100, 'the page was written before the wait');
  await nextTask();
  collectGarbage();
  await nextTask();
  assert.equal(watched.deref(), undefined, 'the page written before the wait is still held');
  giveTurn(false);
  assert.equal(await streaming, 'ended');
});
