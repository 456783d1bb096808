/**
 * The live readers of the feed in this process, counted per key: open streams, capped at
 * EVENT_STREAMS_PER_KEY (the next one is refused, 429 `too_many_streams`), and long polls waiting,
 * capped at the same number (the next one is answered at once, as `wait=0` would be: never an
 * error, and its client's next poll counts against its rate limit like any request). Counts are
 * per process (per instance, per worker): a fleet of n processes lets a key hold up to n times
 * as many. Every entry lives only while its count is above zero, so the map is bounded by the
 * connections open.
 */

export interface LiveReaders {
  /** Takes a stream's place for the key; answers its release, or undefined when the key holds its fill. */
  openStream(keyId: number): (() => void) | undefined;
  /** Takes a waiting long poll's place for the key; answers its release, or undefined when the key holds its fill. */
  startWaiting(keyId: number): (() => void) | undefined;
  readonly streams: number;
  readonly waiting: number;
}

export function createLiveReaders(perKey: number): LiveReaders {
  const streams = new Map<number, number>();
  const waiting = new Map<number, number>();
  const totals = { streams: 0, waiting: 0 };
  const take = (counts: Map<number, number>, total: 'streams' | 'waiting', keyId: number) => {
    const held = counts.get(keyId) ?? 0;
    if (held >= perKey) return undefined;
    counts.set(keyId, held + 1);
    totals[total] += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      totals[total] -= 1;
      const left = counts.get(keyId)! - 1;
      if (left === 0) counts.delete(keyId);
      else counts.set(keyId, left);
    };
  };
  return {
    openStream: (keyId) => take(streams, 'streams', keyId),
    startWaiting: (keyId) => take(waiting, 'waiting', keyId),
    get streams() {
      return totals.streams;
    },
    get waiting() {
      return totals.waiting;
    },
  };
}
