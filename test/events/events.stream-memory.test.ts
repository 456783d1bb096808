/**
 * A stream holds no page's objects while it waits: for its turn to catch up (events.catch-up.ts;
 * with 200 streams about two seconds each, and the pages 200 waiting streams held outlived the
 * young generation: the catch-up benchmark saw RSS grow by 100 MB, then a 100-ms collection), or
 * for a reader that does not read to drain what it was sent. The page is watched with a WeakRef
 * after a full collection. And a page's frames go out in pieces of about 64 KiB, each once the
 * one before may be followed, so a reader that does not read is sent one piece, not the page.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTask } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Event } from '../../src/events/events.schemas.js';
import { type FrameSink, type PageReads, streamWalk } from '../../src/events/events.live.js';
import type { EventWalk, WalkPage } from '../../src/events/events.service.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A full page of events of about `dataChars` characters each. */
function fullPage(dataChars = 10): WalkPage {
  const events = Array.from(
    { length: 100 },
    (_, i) => ({ id: i + 1, type: 'pet.created', occurredAt: new Date(0).toISOString(), data: { id: i + 1, name: 'x'.repeat(dataChars) } }) as unknown as Event,
  );
  return { events, positions: events.map((_, i) => i + 1), next: 100, more: true };
}

const walk: EventWalk = { after: 0, types: undefined, limit: 100, resumed: false, startsLatest: false, cursorOf: (position) => `c${position}` };

/**
 * Starts a stream on one full page, made in a function of its own so nothing of the test holds it.
 * `catchUp` is the wait for the next turn; `sink` where its frames go.
 */
function streamOnePage(sink: FrameSink, catchUp: () => Promise<boolean>, dataChars?: number) {
  const page = fullPage(dataChars);
  const watched = new WeakRef(page);
  const streaming = streamWalk({} as PageReads, walk, sink, {
    opening: { watch: { ticket: () => 0, changedSince: async () => false, stop: () => {} }, ticket: 0, page },
    until: new AbortController().signal,
    stillAllowed: async () => true,
    catchUp,
  });
  return { watched, streaming };
}

async function isCollected(watched: WeakRef<object>): Promise<boolean> {
  await nextTask();
  collectGarbage();
  await nextTask();
  return watched.deref() === undefined;
}

it('a stream waiting for its turn to catch up holds neither the page it wrote nor its first one', async () => {
  let frames = 0;
  let turnAsked!: () => void;
  const waitingForTurn = new Promise<void>((resolve) => (turnAsked = resolve));
  let giveTurn!: (go: boolean) => void;
  const { watched, streaming } = streamOnePage(
    { write: async (text) => void (frames += text.split('\ndata: ').length - 1) },
    // Held, as a timer holds a real turn.
    () =>
      new Promise<boolean>((resolve) => {
        giveTurn = resolve;
        turnAsked();
      }),
  );
  await waitingForTurn;
  assert.equal(frames, 100, 'the page was written before the wait');
  assert.ok(await isCollected(watched), 'the page written before the wait is still held');
  giveTurn(false);
  assert.equal(await streaming, 'ended');
});

it('a stream whose reader does not drain holds no page, and is sent one piece of about 64 KiB of its frames, not the page', async () => {
  const written: string[] = [];
  let drained!: () => void;
  let writeStarted!: () => void;
  const waitingForDrain = new Promise<void>((resolve) => (writeStarted = resolve));
  const { watched, streaming } = streamOnePage(
    {
      // The first write never drains until the test lets it; every later one at once.
      write: (text) => {
        written.push(text);
        if (written.length > 1) return Promise.resolve();
        writeStarted();
        return new Promise<void>((resolve) => (drained = resolve));
      },
    },
    async () => false,
    // About 1.3 KB a frame: 130 KB a page.
    1_200,
  );
  await waitingForDrain;
  assert.equal(written.length, 1);
  assert.ok(written[0]!.length >= 64 * 1024 && written[0]!.length < 64 * 1024 + 1_500, `the first piece is ${written[0]!.length} characters`);
  assert.ok(await isCollected(watched), 'the page is still held while the reader does not drain');
  drained();
  assert.equal(await streaming, 'ended');
  const sent = written.join('');
  assert.equal(sent.split('\ndata: ').length - 1, 100, 'every frame of the page was sent, once');
  assert.ok(sent.startsWith('id: c1\n') && sent.endsWith('"data":{"id":100,"name":"' + 'x'.repeat(1_200) + '"}}\n\n'), 'in order');
});
