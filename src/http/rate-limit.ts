/**
 * Per-client rate limit: a fixed one-minute window per API key (or per address for requests
 * without a well-formed key), counted in this process's memory. It runs before the key is
 * verified, so a flood of bad keys cannot turn into a flood of database lookups.
 *
 * Each process counts on its own: behind a load balancer with N instances (or N workers),
 * a client may make up to N × the limit per minute. That is documented, not hidden.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { looksLikeApiKey } from '../keys/api-key-token.js';

const WINDOW_MS = 60_000;
/** Beyond this many clients in one window, the oldest windows are forgotten first. */
const MAX_TRACKED_CLIENTS = 100_000;

export interface RateLimitOptions {
  /** Requests per client per minute; 0 turns the limit off. */
  limitPerMinute: number;
  now: () => number;
}

export function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  const { limitPerMinute: limit, now } = options;
  if (limit === 0) return;
  const windows = new Map<string, { start: number; count: number }>();

  app.addHook('onRequest', async (request, reply) => {
    const at = now();
    const start = at - (at % WINDOW_MS);
    const client = clientOf(request);
    let window = windows.get(client);
    if (!window || window.start !== start) {
      windows.delete(client);
      if (windows.size >= MAX_TRACKED_CLIENTS) forgetOldest(windows);
      window = { start, count: 0 };
      windows.set(client, window);
    }
    window.count += 1;

    const resetSeconds = Math.ceil((start + WINDOW_MS - at) / 1000);
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(Math.max(0, limit - window.count)));
    reply.header('ratelimit-reset', String(resetSeconds));
    if (window.count > limit) {
      reply.header('retry-after', String(resetSeconds));
      throw new AppError('rate_limited', `more than ${limit} requests in one minute; retry after ${resetSeconds} s`);
    }
  });
}

function clientOf(request: FastifyRequest): string {
  const token = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
  // The key's hash, not the key: nothing here should hold a secret longer than the request.
  return token && looksLikeApiKey(token) ? `key:${createHash('sha256').update(token).digest('base64url')}` : `ip:${request.ip}`;
}

/** A client's entry is re-inserted at each new window, so the first entries are the stalest. */
function forgetOldest(windows: Map<string, unknown>): void {
  for (const client of windows.keys()) {
    if (windows.size < MAX_TRACKED_CLIENTS) return;
    windows.delete(client);
  }
}
