/**
 * When and after how long the client tries a request again: pure functions, and a fetch wrapper
 * that applies them. Only requests that may safely run twice are retried: GET, HEAD and OPTIONS,
 * and any other method only when it carries an Idempotency-Key (the service answers a replay
 * instead of acting twice). Retried: network failures, and 429/503 answers (waiting Retry-After
 * when given); attempts are bounded, and waits grow exponentially with full jitter otherwise.
 */

export interface RetryOptions {
  /** Attempts in all, the first included; 4 by default. 1 disables retries. */
  maxAttempts?: number;
  /** The first backoff ceiling, doubled at each attempt; 100 ms by default. */
  baseDelayMs?: number;
  /** The largest backoff ceiling; 5 s by default. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the answer is returned as it is. 60 s by default. */
  maxRetryAfterMs?: number;
  /** How to wait; injectable so tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1); injectable for repeatable tests. */
  random?: () => number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RETRIED_STATUSES = new Set([429, 503]);

export function mayRetry(method: string, headers: Headers): boolean {
  return SAFE_METHODS.has(method.toUpperCase()) || headers.has('idempotency-key');
}

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; Date.parse alone would read "-1" as a year.
  const date = /GMT$/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The full-jitter backoff before attempt `attempt + 1` (attempt counts from 1). */
export function backoffMs(attempt: number, options: { baseDelayMs: number; maxDelayMs: number; random: () => number }): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(options.random() * ceiling);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `sleep(ms)`, cut short when `signal` aborts (the next attempt then fails at once with the abort). */
function sleepUnlessAborted(sleep: (ms: number) => Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([sleep(ms), aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** A fetch that retries what `mayRetry` allows, replaying the same request (same body, same Idempotency-Key). */
export function retryingFetch(fetchImpl: (request: Request) => Promise<Response>, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const timing = { baseDelayMs: options.baseDelayMs ?? 100, maxDelayMs: options.maxDelayMs ?? 5000, random: options.random ?? Math.random };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;

  return async (request) => {
    if (!mayRetry(request.method, request.headers)) return fetchImpl(request);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      // A body can be read once: each attempt sends its own copy, the original stays unread.
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await fetchImpl(sent);
      } catch (error) {
        // An aborted request is the caller's decision, not a failure to try again.
        if (last || request.signal.aborted) throw error;
        await sleepUnlessAborted(sleep, backoffMs(attempt, timing), request.signal);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const told = retryAfterMs(response.headers.get('retry-after'));
      if (told !== undefined && told > maxRetryAfterMs) return response;
      // Let the connection go back to the pool before waiting.
      await response.body?.cancel().catch(() => undefined);
      await sleepUnlessAborted(sleep, told ?? backoffMs(attempt, timing), request.signal);
    }
  };
}
