import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { generateApiKey } from '../../src/keys/api-key-token.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { createTestDatabase } from '../helpers/test-db.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('request log', () => {
  let t: TestApp;
  let pasted: { key: string; prefix: string };
  before(async () => {
    t = await createTestApp('sqlite');
    pasted = await issueApiKey(t.database.db, { name: 'pasted into a URL' });
  });
  after(() => t.close());

  for (const [scenario, sent, logged, withKey] of [
    ['a key in the query string, with a valid key in the header', (k: string) => `/v1/pets?key=${k}`, (p: string) => `/v1/pets?key=${p}[redacted]`, true],
    ['a key as the petId', (k: string) => `/v1/pets/${k}`, (p: string) => `/v1/pets/${p}[redacted]`, true],
    ['a key in an unknown path, with no Authorization', (k: string) => `/v1/${k}/pets`, (p: string) => `/v1/${p}[redacted]/pets`, false],
    ['a key with its underscore percent-encoded', (k: string) => `/v1/pets?key=${k.replace('_', '%5F')}`, (p: string) => `/v1/pets?key=${p}[redacted]`, true],
  ] as const) {
    it(`${scenario} > is logged with only its display prefix`, async () => {
      const from = t.logs.length;
      const response = await t.app.inject({ method: 'GET', url: sent(pasted.key), headers: withKey ? t.auth : {} });
      assert.ok(response.statusCode >= 400, `${response.statusCode}`);
      const lines = t.logs.slice(from);
      assert.equal(lines.find((line) => line.msg === 'request')?.url, logged(pasted.prefix));
      assert.ok(!JSON.stringify(lines).includes(pasted.key.slice(12)), 'no part of the key beyond its prefix is in any log line');
    });
  }
});

describe('request log > a key smuggled past the redaction', () => {
  let t: TestApp;
  let pasted: { key: string; prefix: string };
  before(async () => {
    t = await createTestApp('sqlite');
    pasted = await issueApiKey(t.database.db, { name: 'smuggled' });
  });
  after(() => t.close());
  const hex = (char: string) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`;

  /** No log line since `from`, nor the answer's headers, holds any part of the key beyond its display prefix. */
  const assertKeyHidden = (from: number, headers: Record<string, unknown>) => {
    const secret = pasted.key.slice(12);
    for (const line of t.logs.slice(from)) {
      const text = JSON.stringify(line);
      assert.ok(!text.includes(secret.slice(0, 10)) && !text.includes(secret.slice(-10)), text);
    }
    assert.ok(!JSON.stringify(headers).includes(secret.slice(0, 10)), JSON.stringify(headers));
  };

  it('X-Request-Id: the key > answers and logs a fresh request id instead', async () => {
    for (const given of [pasted.key, `ASK_${pasted.key.slice(4)}`, `trace:${pasted.key}`]) {
      const from = t.logs.length;
      const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': given } });
      assert.equal(response.statusCode, 200);
      const answered = String(response.headers['x-request-id']);
      assert.match(answered, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(t.logs.slice(from).find((line) => line.msg === 'request')?.requestId, answered);
      assertKeyHidden(from, response.headers);
    }
  });

  it('X-Request-Id with a display prefix only > is kept (it is no secret)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': pasted.prefix } });
    assert.equal(response.headers['x-request-id'], pasted.prefix);
  });

  for (const [scenario, url] of [
    ['?limit= with its first letter percent-encoded', (k: string) => `/v1/pets?limit=${hex('a')}${k.slice(1)}`],
    ['?limit= encoded twice', (k: string) => `/v1/pets?limit=%25${hex('a').slice(1)}${k.slice(1)}`],
    ['a query with a key character of its display prefix encoded', (k: string) => `/v1/pets?key=ask_${hex(k[4]!)}${k.slice(5)}`],
    ['the petId with its first letter encoded', (k: string) => `/v1/pets/${hex('a')}${k.slice(1)}`],
    ['a query in capitals', (k: string) => `/v1/pets?key=ASK_${k.slice(4)}`],
  ] as const) {
    it(`${scenario} > is logged decoded, with only the key's display prefix`, async () => {
      const from = t.logs.length;
      const response = await t.app.inject({ method: 'GET', url: url(pasted.key), headers: t.auth });
      assert.equal(response.statusCode, 400);
      const line = t.logs.slice(from).find((logged) => logged.msg === 'request');
      assert.match(String(line?.url), new RegExp(`${pasted.prefix.replace(/[-_]/g, '\\$&')}\\[redacted\\]$`, 'i'));
      assertKeyHidden(from, response.headers);
    });
  }

  it('a key in User-Agent, Referer, a cookie or a JSON body that fails validation > reaches no log line', async () => {
    const from = t.logs.length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...t.auth, 'user-agent': pasted.key, referer: `https://x.example/?k=${pasted.key}`, cookie: `k=${pasted.key}` },
      payload: { name: pasted.key, categoryId: pasted.key, [pasted.key]: 1 },
    });
    assert.equal(response.statusCode, 400);
    assertKeyHidden(from, response.headers);
  });
});

describe('error log', () => {
  it("an unexpected error whose message quotes a key > is logged with only the key's display prefix", async () => {
    const database = await createTestDatabase('sqlite');
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp({ db: database.db, config: loadConfig({ LOG_LEVEL: 'info' }), logStream });
    const { key, prefix } = generateApiKey();
    app.get('/boom', { config: { public: true } }, async () => {
      throw new Error(`could not handle /boom?key=${key}`);
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/boom' });
      assert.equal(response.statusCode, 500);
      const logged = lines.join('');
      assert.ok(logged.includes(`could not handle /boom?key=${prefix}[redacted]`), logged);
      assert.ok(!logged.includes(key.slice(12)));
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
