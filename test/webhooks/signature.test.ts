/** Standard Webhooks signatures and the retry schedule, as pure functions; the standardwebhooks library is the judge of the signatures. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { secretKeyBytes, signatureHeader, signatureOf } from '../../src/webhooks/webhook-signature.js';
import { JITTER_SHARE, nextAttemptAt, RETRY_AFTER_MAX_MS, retryAfterMs, scheduledDelayMs } from '../../src/webhooks/webhook-retry-schedule.js';
import { newWebhookSecret } from '../helpers/webhook-endpoint-row.js';

describe('webhook signature', () => {
  const message = { id: 'evt_42', timestamp: 1_764_150_000, body: '{"id":42,"type":"pet.created"}' };

  it('signatureOf > the signature the standardwebhooks library makes for the same secret, id, time and body', () => {
    const secret = newWebhookSecret();
    assert.equal(signatureOf(secret, message), new Webhook(secret).sign(message.id, new Date(message.timestamp * 1000), message.body));
  });

  it('signatureOf > keyed with the bytes after whsec_, not the text (the spec example secret)', () => {
    // The example of the Standard Webhooks specification.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    assert.equal(secretKeyBytes(secret).length, 24);
    const signed = signatureOf(secret, { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' });
    assert.equal(signed, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signatureHeader > during a rotation, both signatures space-separated, each verifying with its own secret only', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const header = signatureHeader([current, previous], message);
    const [first, second] = header.split(' ');
    const headers = (signature: string) => ({ 'webhook-id': message.id, 'webhook-timestamp': String(message.timestamp), 'webhook-signature': signature });
    assert.equal(first, signatureOf(current, message));
    assert.equal(second, signatureOf(previous, message));
    // The library checks the timestamp against now: sign for now.
    const now = { ...message, timestamp: Math.floor(Date.now() / 1000) };
    const live = signatureHeader([current, previous], now).split(' ');
    const liveHeaders = (signature: string) => ({ ...headers(signature), 'webhook-timestamp': String(now.timestamp) });
    new Webhook(current).verify(now.body, liveHeaders(live[0]!));
    new Webhook(previous).verify(now.body, liveHeaders(live[1]!));
    assert.throws(() => new Webhook(previous).verify(now.body, liveHeaders(live[0]!)));
    new Webhook(previous).verify(now.body, liveHeaders(live.join(' ')));
  });

  it('secretKeyBytes > a secret without whsec_ is refused', () => {
    assert.throws(() => secretKeyBytes('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'), /whsec_/);
  });
});

describe('webhook retry schedule', () => {
  const schedule = [0, 5, 300];

  it("scheduledDelayMs > the schedule's wait stretched by up to the jitter share; none past its end", () => {
    assert.equal(
      scheduledDelayMs(schedule, 0, () => 0.99),
      0,
    );
    assert.equal(
      scheduledDelayMs(schedule, 1, () => 0),
      5000,
    );
    assert.equal(
      scheduledDelayMs(schedule, 2, () => 1),
      300_000 * (1 + JITTER_SHARE),
    );
    assert.equal(scheduledDelayMs(schedule, 3), undefined);
  });

  it('retryAfterMs > delay-seconds or an HTTP-date, on 429 and 503 only, bounded to a day', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    assert.equal(retryAfterMs(429, '120', now), 120_000);
    assert.equal(retryAfterMs(503, 'Fri, 27 Nov 2026 10:05:00 GMT', now), 300_000);
    assert.equal(retryAfterMs(503, 'Fri, 27 Nov 2026 09:00:00 GMT', now), 0, 'a date already past asks for no wait');
    assert.equal(retryAfterMs(503, '999999999', now), RETRY_AFTER_MAX_MS);
    assert.equal(retryAfterMs(500, '120', now), undefined);
    assert.equal(retryAfterMs(429, 'soon', now), undefined);
    assert.equal(retryAfterMs(429, '-5', now), undefined);
    assert.equal(retryAfterMs(429, undefined, now), undefined);
  });

  it('nextAttemptAt > the later of the schedule and Retry-After; undefined once the schedule is done, Retry-After or not', () => {
    const noJitter = () => 0;
    assert.equal(nextAttemptAt(schedule, 1, 1000, undefined, noJitter), 6000);
    assert.equal(nextAttemptAt(schedule, 1, 1000, 60_000, noJitter), 61_000);
    assert.equal(nextAttemptAt(schedule, 2, 1000, 1, noJitter), 301_000);
    assert.equal(nextAttemptAt(schedule, 3, 1000, 60_000, noJitter), undefined);
  });
});
