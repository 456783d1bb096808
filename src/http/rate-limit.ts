/**
 * Rate limits, in fixed one-minute windows counted in this process's memory:
 * - each API key may make `limitPerMinute` requests;
 * - a client address whose well-formed tokens failed verification that many times has further
 *   tokens of unknown prefix refused with 429 instead of 401. Those tokens never cost a lookup
 *   of their own anyway (keys/key-prefixes.ts); the refusal tells a prober to back off. A token
 *   whose prefix a usable key has is always verified, so a noisy neighbour on a shared address
 *   can never lock out a client whose key works, cached or not.
 * Counting a key only after it is verified means made-up keys cannot claim fresh allowances or
 * push real clients' counters out of memory.
 *
 * Each process counts on its own: behind a load balancer with N instances (or N workers), a
 * client may make up to N × the limit per minute. Behind a proxy, set TRUST_PROXY so the
 * client address is the client's, not the proxy's.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../errors.js';

const WINDOW_MS = 60_000;
/** Beyond this many counters in memory, the stalest are forgotten first. */
const MAX_COUNTERS = 100_000;

export interface RateLimitOptions {
  /** Requests per key (and failed key verifications per address) per minute; 0 turns both off. */
  limitPerMinute: number;
  now: () => number;
}

/** The brake on addresses whose tokens keep failing verification, used by the auth hook. */
export interface FailedVerificationBrake {
  /** Throws 429 when the address has used up its failures this minute. */
  refuseIfExhausted(address: string, reply: FastifyReply): void;
  recordFailure(address: string): void;
}

/**
 * Registers the per-key limit in a scope where the bearer auth hook (onRequest) sets
 * `request.apiKey`, and answers the failed-verification brake for that hook (undefined when off).
 */
export function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): FailedVerificationBrake | undefined {
  const { limitPerMinute: limit, now } = options;
  if (limit === 0) return undefined;
  const perKey = new WindowCounters(limit);
  const failuresPerAddress = new WindowCounters(limit);

  // preParsing runs after every onRequest hook (so after auth) and before the body is read.
  scope.addHook('preParsing', async (request, reply) => {
    if (!request.apiKey) return;
    const window = perKey.take(String(request.apiKey.id), now());
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(window.remaining));
    reply.header('ratelimit-reset', String(window.resetSeconds));
    if (window.exhausted) refuse(reply, window.resetSeconds, `more than ${limit} requests in one minute with this key`);
  });

  return {
    refuseIfExhausted(address, reply) {
      const window = failuresPerAddress.peek(address, now());
      if (window.exhausted) refuse(reply, window.resetSeconds, `more than ${limit} keys from this address failed verification in one minute`);
    },
    recordFailure(address) {
      failuresPerAddress.take(address, now());
    },
  };
}

function refuse(reply: FastifyReply, resetSeconds: number, reason: string): never {
  reply.header('retry-after', String(resetSeconds));
  throw new AppError('rate_limited', `${reason}; retry after ${resetSeconds} s`);
}

/** Fixed-window counters: one count per client for the current minute. */
class WindowCounters {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: number) {}

  /** Counts one request and tells whether it is over the limit. */
  take(client: string, at: number) {
    const window = this.current(client, at);
    window.count += 1;
    return this.describe(window, at, window.count > this.limit);
  }

  /** Tells whether the client has used up its allowance, without counting. */
  peek(client: string, at: number) {
    const window = this.windows.get(client);
    const count = window && window.start === windowStart(at) ? window.count : 0;
    return this.describe({ start: windowStart(at), count }, at, count >= this.limit);
  }

  private current(client: string, at: number) {
    const start = windowStart(at);
    let window = this.windows.get(client);
    if (!window || window.start !== start) {
      // Re-inserting moves the client to the end, so the first entries are always the stalest.
      this.windows.delete(client);
      for (const stale of this.windows.keys()) {
        if (this.windows.size < MAX_COUNTERS) break;
        this.windows.delete(stale);
      }
      window = { start, count: 0 };
      this.windows.set(client, window);
    }
    return window;
  }

  private describe(window: { start: number; count: number }, at: number, exhausted: boolean) {
    return {
      exhausted,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.ceil((window.start + WINDOW_MS - at) / 1000),
    };
  }
}

function windowStart(at: number): number {
  return at - (at % WINDOW_MS);
}
