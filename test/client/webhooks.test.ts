/**
 * verifyWebhook against the reference implementation of Standard Webhooks, the `standardwebhooks`
 * npm package: what it signs, ours accepts (body as text, Buffer or Uint8Array; headers as a plain
 * object in any case or a Headers); what ours refuses, it refuses too, case by case, with the
 * reason ours gives; several secrets and several signatures during a rotation.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook, WebhookVerificationError as ReferenceError } from 'standardwebhooks';
import {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from '../../client/src/index.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const SECRET = newSecret();
const OTHER_SECRET = newSecret();
const EVENT = {
  id: 1042,
  type: 'pet.updated',
  occurredAt: '2026-11-27T09:30:00.000Z',
  data: { id: 42, name: 'Rex ü', categoryId: 3, status: 'pending' },
  changed: ['status'],
};
const BODY = JSON.stringify(EVENT);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The headers the reference implementation makes for `body`, sent `offsetSeconds` from now. */
function signed(body: string, options: { secret?: string; id?: string; offsetSeconds?: number } = {}): Record<string, string> {
  const id = options.id ?? 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
  const timestamp = nowSeconds() + (options.offsetSeconds ?? 0);
  const signature = new Webhook(options.secret ?? SECRET).sign(id, new Date(timestamp * 1000), body);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

/** How the reference implementation judges the same delivery: true when it accepts it. */
function referenceAccepts(secret: string, headers: Record<string, string>, body: string): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch (error) {
    assert.ok(error instanceof ReferenceError, String(error));
    return false;
  }
}

async function refusal(
  secret: string | string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options?: VerifyWebhookOptions,
): Promise<WebhookVerificationFailure> {
  const error = await verifyWebhook(secret, headers, body, options).then(
    () => assert.fail('expected a refusal'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof WebhookVerificationError, String(error));
  assert.equal(error.name, 'WebhookVerificationError');
  return error.reason;
}

describe('verifyWebhook', () => {
  it('verifyWebhook > a delivery signed by standardwebhooks > answers its Event, whatever form the body and headers take', async () => {
    const headers = signed(BODY);
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    assert.deepEqual(await verifyWebhook(SECRET, headers, BODY), EVENT);
    assert.deepEqual(await verifyWebhook(SECRET, upper, Buffer.from(BODY)), EVENT);
    assert.deepEqual(await verifyWebhook(SECRET, new Headers(headers), new TextEncoder().encode(BODY)), EVENT);
    // The secret without its prefix, as the reference implementation accepts it too.
    assert.deepEqual(await verifyWebhook(SECRET.slice('whsec_'.length), headers, BODY), EVENT);
  });

  it('verifyWebhook > a changed delivery, a stale one, a wrong secret, missing headers > refused for the reason the reference refuses it', async () => {
    const good = signed(BODY);
    const cases: { name: string; secret?: string; headers: Record<string, string>; body?: string; reason: WebhookVerificationFailure }[] = [
      { name: 'body changed', headers: good, body: BODY.replace('Rex', 'Max'), reason: 'no_matching_signature' },
      { name: 'body re-serialised with spaces', headers: good, body: JSON.stringify(EVENT, null, 1), reason: 'no_matching_signature' },
      { name: 'id changed', headers: { ...good, 'webhook-id': 'msg_other' }, reason: 'no_matching_signature' },
      {
        name: 'timestamp changed by a second',
        headers: { ...good, 'webhook-timestamp': String(Number(good['webhook-timestamp']) + 1) },
        reason: 'no_matching_signature',
      },
      { name: 'wrong secret', secret: OTHER_SECRET, headers: good, reason: 'no_matching_signature' },
      { name: 'six minutes old', headers: signed(BODY, { offsetSeconds: -360 }), reason: 'timestamp_too_old' },
      { name: 'six minutes ahead', headers: signed(BODY, { offsetSeconds: 360 }), reason: 'timestamp_too_new' },
      { name: 'no webhook-id', headers: { ...good, 'webhook-id': '' }, reason: 'missing_headers' },
      {
        name: 'no webhook-timestamp',
        headers: { 'webhook-id': good['webhook-id']!, 'webhook-signature': good['webhook-signature']! },
        reason: 'missing_headers',
      },
      {
        name: 'no webhook-signature',
        headers: { 'webhook-id': good['webhook-id']!, 'webhook-timestamp': good['webhook-timestamp']! },
        reason: 'missing_headers',
      },
      { name: 'timestamp not a number', headers: { ...good, 'webhook-timestamp': 'yesterday' }, reason: 'invalid_timestamp' },
      {
        name: 'only an unknown version (v1a)',
        headers: { ...good, 'webhook-signature': good['webhook-signature']!.replace(/^v1,/, 'v1a,') },
        reason: 'no_matching_signature',
      },
      { name: 'v1 signature not base64', headers: { ...good, 'webhook-signature': 'v1,not*base64' }, reason: 'no_matching_signature' },
    ];
    for (const { name, secret = SECRET, headers, body = BODY, reason } of cases) {
      assert.equal(referenceAccepts(secret, headers, body), false, `${name}: the reference refuses it`);
      assert.equal(await refusal(secret, headers, body), reason, name);
    }
  });

  it('verifyWebhook > within the tolerance either way > accepted, as by the reference; a tolerance option narrows it', async () => {
    for (const offsetSeconds of [-290, 290]) {
      const headers = signed(BODY, { offsetSeconds });
      assert.equal(referenceAccepts(SECRET, headers, BODY), true);
      assert.deepEqual(await verifyWebhook(SECRET, headers, BODY), EVENT, `${offsetSeconds} s`);
    }
    const minuteOld = signed(BODY, { offsetSeconds: -60 });
    assert.deepEqual(await verifyWebhook(SECRET, minuteOld, BODY, { toleranceSeconds: 90 }), EVENT);
    assert.equal(await refusal(SECRET, minuteOld, BODY, { toleranceSeconds: 30 }), 'timestamp_too_old');
  });

  it('verifyWebhook > during a rotation: several signatures, several secrets > any one match suffices; unknown versions are passed over', async () => {
    const headers = signed(BODY);
    const fromOldSecret = signed(BODY, { secret: OTHER_SECRET, id: headers['webhook-id'] })['webhook-signature']!;
    const bothSignatures = { ...headers, 'webhook-signature': `v1a,${'A'.repeat(86)}== ${fromOldSecret} ${headers['webhook-signature']}` };
    assert.equal(referenceAccepts(SECRET, bothSignatures, BODY), true);
    assert.deepEqual(await verifyWebhook(SECRET, bothSignatures, BODY), EVENT);
    assert.deepEqual(await verifyWebhook(OTHER_SECRET, bothSignatures, BODY), EVENT);
    // The receiver that knows both secrets accepts a delivery signed by either.
    assert.deepEqual(await verifyWebhook([OTHER_SECRET, SECRET], headers, BODY), EVENT);
    assert.equal(await refusal([OTHER_SECRET, newSecret()], headers, BODY), 'no_matching_signature');
  });

  it('verifyWebhook > a webhook.test message > answered as it came, typed apart from the events', async () => {
    const message = { type: 'webhook.test', occurredAt: '2026-11-27T09:30:00.000Z', data: { endpointId: 3, message: 'A test message' } };
    const payload = await verifyWebhook(SECRET, signed(JSON.stringify(message)), JSON.stringify(message));
    assert.deepEqual(payload, message);
    assert.equal(payload.type === 'webhook.test' ? payload.data.endpointId : undefined, 3);
  });

  it('verifyWebhook > signed correctly but not JSON > invalid_payload', async () => {
    assert.equal(await refusal(SECRET, signed('not json'), 'not json'), 'invalid_payload');
  });

  it('verifyWebhook > a secret that is not whsec_ and base64, or none > TypeError: a configuration mistake, not a bad delivery', async () => {
    for (const secret of ['whsec_', 'whsec_not base64!', []]) {
      await assert.rejects(verifyWebhook(secret, signed(BODY), BODY), TypeError, JSON.stringify(secret));
    }
  });
});
