/**
 * Waiting on events with a deadline. The deadline only fails a wait that is stuck: a test never
 * sleeps in the hope that something happened, and never asserts how long something took.
 */
import { setTimeout as pause } from 'node:timers/promises';

/** Settles as `promise` does, or rejects with `what` once `ms` have passed without it settling. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const deadline = new AbortController();
  const expired = pause(ms, undefined, { signal: deadline.signal }).then(() => {
    throw new Error(`${what} (still waiting after ${ms} ms)`);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    deadline.abort();
    expired.catch(() => {});
  }
}

/**
 * Resolves once `check()` holds, checking again every `everyMs` (a state that only the service
 * can change, seen from outside: an answer, a row), or rejects with `what` after `deadlineMs`.
 */
export async function waitUntil(check: () => Promise<boolean> | boolean, options: { deadlineMs: number; everyMs?: number; what: string }): Promise<void> {
  let stop = false;
  const polling = (async () => {
    while (!stop && !(await check())) await pause(options.everyMs ?? 25);
  })();
  try {
    await withDeadline(polling, options.deadlineMs, options.what);
  } finally {
    stop = true;
  }
}
