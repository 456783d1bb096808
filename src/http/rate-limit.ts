/**
 * Rate limits, in fixed one-minute windows counted in this process's memory:
 * - each API key may make `limitPerMinute` requests;
 * - a client address whose keys failed verification that many times is refused before any
 *   further key lookup, so neither bad keys nor random well-formed ones can flood the database.
 *   Keys already verified (in the cache) still pass, so a noisy neighbour on a shared address
 *   cannot lock out a client whose key works; requests without a well-formed key never reach
 *   the database and simply get their 401.
 * Counting a key only after it is verified means made-up keys cannot claim fresh allowances or
 * push real clients' counters out of memory.
 *
 * Each process counts on its own: behind a load balancer with N instances (or N workers), a
 * client may make up to N × the limit per minute. Behind a proxy, set TRUST_PROXY so the
 * client address is the client's, not the proxy's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { looksLikeApiKey } from '../keys/api-key-token.js';
import type { KeyVerifier } from '../keys/keys.service.js';
import { bearerTokenOf } from './auth.js';

const WINDOW_MS = 60_000;
/** Beyond this many counters in memory, the stalest are forgotten first. */
const MAX_COUNTERS = 100_000;

export interface RateLimitOptions {
  /** Requests per key (and failed key verifications per address) per minute; 0 turns both off. */
  limitPerMinute: number;
  now: () => number;
  verifier: KeyVerifier;
}

/** Registers the hooks in a scope where the bearer auth hook (onRequest) sets `request.apiKey`. */
export function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): void {
  const { limitPerMinute: limit, now, verifier } = options;
  if (limit === 0) return;
  const perKey = new WindowCounters(limit);
  const failuresPerAddress = new WindowCounters(limit);
  /** A well-formed key the cache cannot vouch for: verifying it means a database lookup. */
  const needsLookup = (request: FastifyRequest) => {
    const token = bearerTokenOf(request.headers.authorization);
    return token !== undefined && looksLikeApiKey(token) && !verifier.isKnownValid(token);
  };

  // Registered before the auth hook, so it runs first and spares the key lookup.
  scope.addHook('onRequest', async (request, reply) => {
    if (!needsLookup(request)) return;
    const window = failuresPerAddress.peek(request.ip, now());
    if (window.exhausted) refuse(reply, window.resetSeconds, `more than ${limit} keys from this address failed verification in one minute`);
  });

  // preParsing runs after every onRequest hook (so after auth) and before the body is read.
  scope.addHook('preParsing', async (request, reply) => {
    if (!request.apiKey) return;
    const window = perKey.take(String(request.apiKey.id), now());
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(window.remaining));
    reply.header('ratelimit-reset', String(window.resetSeconds));
    if (window.exhausted) refuse(reply, window.resetSeconds, `more than ${limit} requests in one minute with this key`);
  });

  scope.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && needsLookup(request)) failuresPerAddress.take(request.ip, now());
  });
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
