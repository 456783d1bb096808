/**
 * A webhook endpoint's signing secret (`whsec_…`) reaches no log line, wherever a client or an
 * error puts it: a URL (as written, percent-encoded, its `+` read as a space), a request id, a body
 * that fails validation, an unexpected error's message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { generateWebhookSecret } from '../../src/webhooks/webhook-secret.js';
import { redactSecrets } from '../../src/secrets/log-redaction.js';
import { createTestApp, logCollector, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-db.js';

/** A secret with each of base64's signs, so that every way of writing them is tried. */
function secretWithSigns(): string {
  for (;;) {
    const secret = generateWebhookSecret();
    if (secret.includes('+') && secret.includes('/')) return secret;
  }
}

/** The parts of a secret a leak would show: the first and last characters of what follows `whsec_`. */
const partsOf = (secret: string) => [secret.slice(6, 16), secret.slice(-12, -2)];

describe('redactSecrets > webhook signing secrets', () => {
  const secret = secretWithSigns();

  it('Attack: a secret as written, percent-encoded, or with its + read as a space > keeps only whsec_', () => {
    for (const text of [
      `/v1/x?s=${secret}&limit=2`,
      `/v1/x?s=${encodeURIComponent(secret)}`,
      `/v1/x?s=${encodeURIComponent(encodeURIComponent(secret))}`,
      `/v1/x?s=${secret}&q=%41`,
      `secret ${secret.toUpperCase()}`,
    ]) {
      const redacted = redactSecrets(text);
      for (const part of partsOf(secret)) assert.ok(!redacted.toLowerCase().includes(part.toLowerCase()), redacted);
      assert.match(redacted, /whsec_\[redacted\]/i);
    }
  });

  it('text without a secret > is left as it is', () => {
    for (const text of ['/v1/webhook-endpoints?limit=2', 'the whsec prefix', '/v1/pets?name=a%20b']) assert.equal(redactSecrets(text), text);
  });
});

describe('request and error logs > webhook signing secrets', () => {
  let t: TestApp;
  const secret = secretWithSigns();
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  const assertSecretHidden = (from: number) => {
    const text = JSON.stringify(t.logs.slice(from));
    for (const part of partsOf(secret)) assert.ok(!text.includes(part), text);
  };

  it('Attack: a secret in a URL, a request id or a body that fails validation > reaches no log line', async () => {
    const from = t.logs.length;
    const sane = `whsec_${secret.slice(6).replace(/[+/=]/g, '')}`;
    for (const url of [`/v1/webhook-endpoints?secret=${secret}`, `/v1/webhook-endpoints/${encodeURIComponent(secret)}`]) {
      assert.equal((await t.app.inject({ method: 'GET', url, headers: t.auth })).statusCode, 400);
    }
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': sane } });
    assert.notEqual(response.headers['x-request-id'], sane, 'a request id that holds a secret is replaced');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: t.auth,
      payload: { url: secret, events: [secret], description: 7, [secret]: 1 },
    });
    assert.equal(refused.statusCode, 400);
    assertSecretHidden(from);
  });

  it('Attack: an unexpected error whose message quotes a secret > is logged with whsec_[redacted]', async () => {
    const database = await createTestDatabase('sqlite');
    const { logs, logStream } = logCollector();
    const app = await buildApp({ db: database.db, config: loadConfig({ LOG_LEVEL: 'info' }), logStream });
    app.get('/boom', { config: { public: true } }, async () => {
      throw new Error(`could not sign with ${secret}`);
    });
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/boom' })).statusCode, 500);
      const text = JSON.stringify(logs);
      assert.ok(text.includes('could not sign with whsec_[redacted]'), text);
      for (const part of partsOf(secret)) assert.ok(!text.includes(part), text);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
