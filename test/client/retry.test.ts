import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, mayRetry, retryAfterMs, retryingFetch } from '../../client/src/retry.js';
import { withDeadline } from '../helpers/wait-for.js';

/** A fetch answering the given statuses in turn, recording what it was sent. */
function scripted(answers: (number | Error | Response)[]) {
  const sent: { method: string; body: string; key: string | null }[] = [];
  const fetchImpl = async (request: Request) => {
    sent.push({ method: request.method, body: await request.text(), key: request.headers.get('idempotency-key') });
    const next = answers.shift();
    if (next instanceof Error) throw next;
    if (next instanceof Response) return next;
    return new Response(null, { status: next ?? 200 });
  };
  return { sent, fetchImpl };
}

describe('client retries', () => {
  it('mayRetry > safe methods and keyed writes > only those', () => {
    assert.equal(mayRetry('GET', new Headers()), true);
    assert.equal(mayRetry('POST', new Headers()), false);
    assert.equal(mayRetry('PATCH', new Headers()), false);
    assert.equal(mayRetry('POST', new Headers({ 'Idempotency-Key': 'k' })), true);
    assert.equal(mayRetry('DELETE', new Headers({ 'Idempotency-Key': 'k' })), true);
  });

  it('retryAfterMs > seconds, a date, and garbage > milliseconds or undefined', () => {
    assert.equal(retryAfterMs('7'), 7000);
    assert.equal(retryAfterMs('Thu, 26 Nov 2026 10:00:10 GMT', Date.parse('Thu, 26 Nov 2026 10:00:00 GMT')), 10_000);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs('-1'), undefined);
    assert.equal(retryAfterMs(null), undefined);
  });

  it('backoffMs > growing attempts > full jitter under a doubling ceiling capped at maxDelayMs', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, options)),
      [99, 199, 399, 799, 999],
    );
    assert.equal(backoffMs(3, { ...options, random: () => 0 }), 0);
  });

  it('retryingFetch > 503 with Retry-After then 200 > waits what the answer says and answers 200', async () => {
    const { sent, fetchImpl } = scripted([new Response(null, { status: 503, headers: { 'retry-after': '2' } }), 200]);
    const sleeps: number[] = [];
    const response = await retryingFetch(fetchImpl, { sleep: async (ms) => void sleeps.push(ms) })(new Request('http://x/v1/pets'));
    assert.equal(response.status, 200);
    assert.equal(sent.length, 2);
    assert.deepEqual(sleeps, [2000]);
  });

  it('retryingFetch > a keyed POST whose connection fails > resends the same body and key', async () => {
    const { sent, fetchImpl } = scripted([new TypeError('fetch failed'), 201]);
    const request = new Request('http://x/v1/pets', { method: 'POST', body: '{"name":"A","categoryId":1}', headers: { 'idempotency-key': 'k-1' } });
    const response = await retryingFetch(fetchImpl, { sleep: async () => {}, random: () => 0.5 })(request);
    assert.equal(response.status, 201);
    assert.deepEqual(sent, [
      { method: 'POST', body: '{"name":"A","categoryId":1}', key: 'k-1' },
      { method: 'POST', body: '{"name":"A","categoryId":1}', key: 'k-1' },
    ]);
  });

  it('retryingFetch > a POST without a key > is sent once, even on 503', async () => {
    const { sent, fetchImpl } = scripted([503, 201]);
    const response = await retryingFetch(fetchImpl, { sleep: async () => {} })(new Request('http://x/v1/pets', { method: 'POST', body: '{}' }));
    assert.equal(response.status, 503);
    assert.equal(sent.length, 1);
  });

  it('retryingFetch > 429 every time > stops after maxAttempts and answers the last 429', async () => {
    const { sent, fetchImpl } = scripted([429, 429, 429, 429, 429]);
    const sleeps: number[] = [];
    const response = await retryingFetch(fetchImpl, { maxAttempts: 3, baseDelayMs: 100, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) })(
      new Request('http://x/v1/pets'),
    );
    assert.equal(response.status, 429);
    assert.equal(sent.length, 3);
    assert.deepEqual(sleeps, [50, 100]);
  });

  it('retryingFetch > Retry-After beyond maxRetryAfterMs > answers at once instead of waiting', async () => {
    const { sent, fetchImpl } = scripted([new Response(null, { status: 429, headers: { 'retry-after': '3600' } })]);
    const sleeps: number[] = [];
    const response = await retryingFetch(fetchImpl, { sleep: async (ms) => void sleeps.push(ms) })(new Request('http://x/v1/pets'));
    assert.equal(response.status, 429);
    assert.equal(sent.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it('retryingFetch > 500 > is not retried (the service failed, it was not busy)', async () => {
    const { sent, fetchImpl } = scripted([500, 200]);
    const response = await retryingFetch(fetchImpl, { sleep: async () => {} })(new Request('http://x/v1/pets'));
    assert.equal(response.status, 500);
    assert.equal(sent.length, 1);
  });

  it('retryingFetch > a request its caller aborted > fails at once, not tried again', async () => {
    const controller = new AbortController();
    controller.abort();
    const { sent, fetchImpl } = scripted([new DOMException('aborted', 'AbortError'), 200]);
    const sleeps: number[] = [];
    await assert.rejects(
      retryingFetch(fetchImpl, { sleep: async (ms) => void sleeps.push(ms) })(new Request('http://x/v1/events', { signal: controller.signal })),
      { name: 'AbortError' },
    );
    assert.equal(sent.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it('retryingFetch > aborted while waiting a Retry-After > stops waiting and fails with the abort', async () => {
    const controller = new AbortController();
    const fetchImpl = async (request: Request) => {
      if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
      return new Response(null, { status: 503, headers: { 'retry-after': '30' } });
    };
    // A sleep that never ends by itself: only the abort can end the wait.
    const never = () => new Promise<void>(() => {});
    const waiting = retryingFetch(fetchImpl, { sleep: never })(new Request('http://x/v1/events', { signal: controller.signal }));
    controller.abort();
    await assert.rejects(withDeadline(waiting, 10_000, 'the abort to end the wait'), { name: 'AbortError' });
  });
});
