/**
 * The catch-up measurement's readers count event frames in the bytes as they come
 * (bench/event-frame-counter.ts): every frame once, however the stream is cut into chunks.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eventFrameCounter } from '../../bench/event-frame-counter.js';

const frame = (id: number) => `id: c${id}\nevent: pet.created\ndata: {"id":${id},"type":"pet.created","data":{"name":"data: not a line"}}\n\n`;
const stream = Buffer.from(`retry: 1000\n\n${frame(1)}: keep-alive\n\n${frame(2)}${frame(3)}`);

it('counts each frame that holds an event once, not the retry hint, comments or "data: " inside a value', () => {
  assert.equal(eventFrameCounter()(stream), 3);
});

it('counts a frame once wherever the chunks cut it, its data line included', () => {
  for (let cut = 0; cut <= stream.length; cut++) {
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const count = eventFrameCounter();
      let total = count(stream.subarray(0, cut));
      for (let at = cut; at < stream.length; at += size) total += count(stream.subarray(at, at + size));
      assert.equal(total, 3, `first cut at ${cut}, then chunks of ${size}`);
    }
  }
});
