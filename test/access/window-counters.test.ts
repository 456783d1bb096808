import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WindowCounters } from '../../src/access/window-counters.js';

const START = Date.parse('2027-01-01T00:00:00Z');

describe('WindowCounters', () => {
  it('a sync in flight > still counts what it pushes, so no request slips through the gap', () => {
    const counters = new WindowCounters(3);
    counters.take('k', START);
    counters.take('k', START);
    const [push] = counters.drain(START);
    assert.deepEqual(push, { client: 'k', windowStart: START, increment: 2 });
    assert.equal(counters.take('k', START).remaining, 0, 'the 2 in flight and this one');
    counters.settle(push!, 2);
    assert.equal(counters.take('k', START).exhausted, true, 'fleet 2 plus the 2 counted since');
  });

  it('a failed sync > puts its counts back for the next one', () => {
    const counters = new WindowCounters(10);
    counters.take('k', START);
    const [push] = counters.drain(START);
    counters.restore(push!);
    assert.equal(counters.peek('k', START).remaining, 9);
    assert.deepEqual(counters.drain(START), [{ client: 'k', windowStart: START, increment: 1 }]);
  });

  it('the fleet total > is added to what was counted since, and only windows in use are synced', () => {
    const counters = new WindowCounters(10);
    counters.take('k', START);
    const [push] = counters.drain(START);
    counters.settle(push!, 7);
    assert.deepEqual(counters.drain(START), [], 'nothing new: nothing to push');
    assert.equal(counters.take('k', START).remaining, 2);
    // The next minute starts from zero, and last minute's window is not pushed again.
    assert.equal(counters.take('k', START + 60_000).remaining, 9);
    assert.deepEqual(counters.drain(START + 60_000), [{ client: 'k', windowStart: START + 60_000, increment: 1 }]);
  });

  it('a sync limited to a few windows > pushes the others at the next ones, losing no count', () => {
    const counters = new WindowCounters(10);
    for (const client of ['a', 'b', 'c']) counters.take(client, START);
    assert.deepEqual(
      counters.drain(START, 2).map((push) => push.client),
      ['a', 'b'],
    );
    assert.deepEqual(
      counters.drain(START, 2).map((push) => push.client),
      ['c'],
    );
    assert.equal(counters.peek('c', START).remaining, 9);
  });
});
