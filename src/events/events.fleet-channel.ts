/**
 * How a commit in one process reaches the waiting readers of the feed in the others
 * (events.wakeup.ts), faster than their once-a-second check:
 * - Redis pub/sub when REDIS_URL is set: every instance of a fleet, on any machine;
 * - under `--workers N` without Redis: the cluster's IPC, relayed by the primary to the other
 *   workers (`relayFeedChanges`, installed by server.ts), the workers of one machine only.
 * A message says only "something was committed, look": anyone able to publish on the channel can
 * make the processes read the feed's frontier once more, nothing else. A process tells at most
 * once every PUBLISH_GAP_MS, however many commits it makes (a busy writer does not flood the
 * channel); the last commit of a burst is always told. Lost messages (Redis down) cost latency,
 * never an event: the timer of events.wakeup.ts checks anyway.
 */
import cluster from 'node:cluster';
import type { RedisLink } from '../redis/redis-link.js';

/** Shortest time between two messages of one process. */
const PUBLISH_GAP_MS = 50;
const REDIS_CHANNEL = 'events-changed';
const IPC_TYPE = 'animal-store:events-changed';

export interface FeedChangeChannel {
  /** Tells the other processes that this one committed (throttled). */
  publish(): void;
  /** Calls `onChange` when another process tells. */
  subscribe(onChange: () => void): void;
  close(): void;
}

/** The channel of this process: Redis when given, else the cluster relay in a worker, else none. */
export function feedChangeChannel(redis: RedisLink | undefined, onError: (error: unknown) => void): FeedChangeChannel | undefined {
  if (redis) {
    return throttled(
      () => void redis.commands.publish(`${redis.keyPrefix}${REDIS_CHANNEL}`, '1').catch(() => {}),
      (onChange) => void redis.subscribe(REDIS_CHANNEL, onChange).catch(onError),
    );
  }
  if (cluster.isWorker && process.send) {
    let listener: ((message: { type?: unknown }) => void) | undefined;
    const channel = throttled(
      () => process.send?.({ type: IPC_TYPE }),
      (onChange) => {
        listener = (message) => {
          if (message?.type === IPC_TYPE) onChange();
        };
        process.on('message', listener);
      },
    );
    return { ...channel, close: () => (channel.close(), listener && process.off('message', listener)) };
  }
  return undefined;
}

/** In the primary of `--workers N`: passes a worker's message on to every other worker. */
export function relayFeedChanges(): void {
  cluster.on('message', (from, message: { type?: unknown } | undefined) => {
    if (message?.type !== IPC_TYPE) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== from && worker.isConnected()) worker.send({ type: IPC_TYPE }, undefined, () => {});
    }
  });
}

function throttled(send: () => void, subscribe: (onChange: () => void) => void): FeedChangeChannel {
  let lastSent = -Infinity;
  let pending: NodeJS.Timeout | undefined;
  let closed = false;
  const sendNow = () => {
    pending = undefined;
    lastSent = Date.now();
    send();
  };
  return {
    publish() {
      if (pending || closed) return;
      const wait = lastSent + PUBLISH_GAP_MS - Date.now();
      if (wait <= 0) sendNow();
      else pending = setTimeout(sendNow, wait);
    },
    subscribe,
    close() {
      closed = true;
      clearTimeout(pending);
    },
  };
}
