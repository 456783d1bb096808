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

describe('error log', () => {
  it('an unexpected error whose message quotes a key > is logged with only the key\'s display prefix', async () => {
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
