/**
 * Rate limits, in fixed one-minute windows counted in this process's memory:
 * - each API key may make `limitPerMinute` requests;
 * - a client address whose well-formed tokens failed verification that many times has further
 *   tokens that are no usable key refused with 429 instead of 401. Those tokens never cost a
 *   lookup of their own anyway (keys/usable-keys.ts); the refusal tells a prober to back off. A
 *   usable key is always verified, so a noisy neighbour on a shared address can never lock out
 *   a client whose key works, cached or not.
 * Counting a key only after it is verified means made-up keys cannot claim fresh allowances or
 * push real clients' counters out of memory.
 *
 * Without REDIS_URL each process counts on its own: behind a load balancer with N instances (or
 * N workers), a client may make up to N × the limit per minute. With it, the counts are shared
 * (redis/counter-sync.ts) and the overshoot is bounded as docs/operations.md, "Rate limits in a fleet", says.
 * Behind a proxy, set TRUST_PROXY so the client address is the client's, not the proxy's.
 *
 * Answers carry the fields of draft-ietf-httpapi-ratelimit-headers-11:
 * `RateLimit-Policy: "per-key";q=1200;w=60` and `RateLimit: "per-key";r=1187;t=42`.
 */
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import { WINDOW_MS, WindowCounters } from './window-counters.js';

/** The policy's name in the RateLimit fields. */
const POLICY = '"per-key"';

export interface RateLimitOptions {
  /** Requests per key (and failed key verifications per address) per minute; 0 turns both off. */
  limitPerMinute: number;
  now: () => number;
  /** Receives the counters, to share them with a fleet (redis/counter-sync.ts). */
  share?: (counters: { perKey: WindowCounters; failedVerifications: WindowCounters }) => void;
}

/** The brake on addresses whose tokens keep failing verification, used by authentication. */
export interface FailedVerificationBrake {
  /** Throws 429 when the address has used up its failures this minute. */
  refuseIfExhausted(address: string, reply: FastifyReply): void;
  recordFailure(address: string): void;
}

/** The per-key quota, and the failed-verification brake for authentication. */
export interface RateLimit {
  /**
   * Counts a request of a verified key and sets the RateLimit fields; throws 429 when the key's
   * quota is spent. Called right after authentication, before every other check, so every
   * answer to a valid key counts and carries the fields (access-control.ts).
   */
  countRequest(reply: FastifyReply, keyId: number): void;
  brake: FailedVerificationBrake;
}

/** The per-key limit and the brake on failing addresses; undefined when turned off (limit 0). */
export function createRateLimit(options: RateLimitOptions): RateLimit | undefined {
  const { limitPerMinute: limit, now } = options;
  if (limit === 0) return undefined;
  const perKey = new WindowCounters(limit);
  const failuresPerAddress = new WindowCounters(limit);
  options.share?.({ perKey, failedVerifications: failuresPerAddress });
  const policy = `${POLICY};q=${limit};w=${WINDOW_MS / 1000}`;

  const countRequest: RateLimit['countRequest'] = (reply, keyId) => {
    const window = perKey.take(String(keyId), now());
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `${POLICY};r=${window.remaining};t=${window.resetSeconds}`);
    if (window.exhausted) refuse(reply, window.resetSeconds, `more than ${limit} requests in one minute with this key`);
  };

  const brake: FailedVerificationBrake = {
    refuseIfExhausted(address, reply) {
      const window = failuresPerAddress.peek(address, now());
      if (window.exhausted) refuse(reply, window.resetSeconds, `more than ${limit} keys from this address failed verification in one minute`);
    },
    recordFailure(address) {
      failuresPerAddress.take(address, now());
    },
  };
  return { countRequest, brake };
}

function refuse(reply: FastifyReply, resetSeconds: number, reason: string): never {
  reply.header('retry-after', String(resetSeconds));
  throw new AppError('rate_limited', `${reason}; retry after ${resetSeconds} s`);
}
