import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createUsableKeySet } from '../../src/keys/usable-keys.js';

/** A load function whose reads the test finishes by hand, seeing the prefixes of that moment. */
function controlledLoad() {
  const stored: string[] = [];
  const reads: { finish(): void }[] = [];
  const load = () =>
    new Promise<string[]>((resolve) => {
      reads.push({ finish: () => resolve([...stored]) });
    });
  return { stored, reads, load };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createUsableKeySet', () => {
  it('callers asking together > share one read', async () => {
    const { stored, reads, load } = controlledLoad();
    stored.push('ask_AAAAAAAA');
    const set = createUsableKeySet(load, { minIntervalMs: 0 });
    const waits = Array.from({ length: 50 }, () => set.refreshed());
    await settle();
    assert.equal(reads.length, 1);
    reads[0]!.finish();
    await Promise.all(waits);
    assert.ok(set.has('ask_AAAAAAAA'));
    assert.equal(set.has('ask_BBBBBBBB'), false);
  });

  it('a caller asking while a read runs > waits for the next read, which sees what was made meanwhile', async () => {
    const { stored, reads, load } = controlledLoad();
    const set = createUsableKeySet(load, { minIntervalMs: 0 });
    const first = set.refreshed();
    await settle();
    assert.equal(reads.length, 1);
    stored.push('ask_CCCCCCCC'); // made after the first read began
    let secondDone = false;
    const second = set.refreshed().then(() => (secondDone = true));
    reads[0]!.finish();
    await first;
    await settle();
    assert.equal(secondDone, false, 'the read that began before it asked does not answer it');
    assert.equal(reads.length, 2);
    reads[1]!.finish();
    await second;
    assert.ok(set.has('ask_CCCCCCCC'));
  });

  it('a failed read > rejects its callers, and the next caller gets a new read', async () => {
    let calls = 0;
    const set = createUsableKeySet(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return ['ask_DDDDDDDD'];
      },
      { minIntervalMs: 0 },
    );
    await assert.rejects(set.refreshed(), /database down/);
    await set.refreshed();
    assert.ok(set.has('ask_DDDDDDDD'));
  });
});
