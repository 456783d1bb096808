/**
 * The rate limit of one app (rate-limit.ts), with its counts shared through Redis when the fleet
 * has one (redis/counter-sync.ts, never on a request's path), and `app.counterSync` to push them
 * now. Made once at the root, before the /v1 scope whose admission hook counts into it.
 */
import type { FastifyInstance } from 'fastify';
import { type CounterSync, syncCounters } from '../redis/counter-sync.js';
import type { RedisLink } from '../redis/redis-link.js';
import { createRateLimit, type RateLimit } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pushes the rate-limit counts to Redis now (a no-op without Redis). */
    counterSync: { syncNow(): Promise<boolean> };
  }
}

export interface SharedRateLimitOptions {
  /** Requests per key (and failed key verifications per address) per minute; 0 turns both off. */
  limitPerMinute: number;
  now: () => number;
  redis?: RedisLink;
  /** How often the counts are pushed to Redis. */
  syncMs: number;
}

/** Undefined when the limit is 0 (off). */
export function createSharedRateLimit(app: FastifyInstance, options: SharedRateLimitOptions): RateLimit | undefined {
  const { redis, now } = options;
  let counterSync: CounterSync | undefined;
  const rateLimit = createRateLimit({
    limitPerMinute: options.limitPerMinute,
    now,
    share: (counters) => {
      if (redis) counterSync = syncCounters(redis, { key: counters.perKey, fail: counters.failedVerifications }, { intervalMs: options.syncMs, now });
    },
  });
  app.decorate('counterSync', { syncNow: () => counterSync?.syncNow() ?? Promise.resolve(true) });
  app.addHook('onClose', () => counterSync?.stop());
  return rateLimit;
}
