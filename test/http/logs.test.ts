import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { hashApiKey } from '../../src/keys/api-key-token.js';
import { createTestApp, logCollector, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-db.js';

describe('request log lines', () => {
  // Each test gets its own app: the quota count and the log lines of one never leak into another.
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '4', CORS_ORIGINS: 'https://shop.example' }, now: Date.parse('2027-01-01T00:00:00Z') });
  });
  afterEach(() => t.close());

  const requestLine = (requestId: string) => {
    const lines = t.logs.filter((line) => line.msg === 'request' && line.requestId === requestId);
    assert.equal(lines.length, 1, `one request line for ${requestId}`);
    return lines[0]!;
  };

  it('an authenticated request > logs its request id, the key id and prefix', async () => {
    const key = t.auth.authorization.slice('Bearer '.length);
    const row = await t.database.db.selectFrom('apiKeys').select(['id', 'prefix']).where('secretHash', '=', hashApiKey(key)).executeTakeFirstOrThrow();
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': 'trace-me-1' } });
    assert.equal(response.statusCode, 200);
    const line = requestLine('trace-me-1');
    assert.equal(line.keyId, row.id);
    assert.equal(line.keyPrefix, row.prefix);
    assert.equal(line.statusCode, 200);
  });

  it('every kind of request > logs neither a key, nor its hash, nor the Authorization header', async () => {
    const key = t.auth.authorization.slice('Bearer '.length);
    const unknownKey = `ask_${randomBytes(32).toString('base64url')}`;
    const secrets = [key, hashApiKey(key), unknownKey, hashApiKey(unknownKey), 'not-a-key-but-secret', 'Bearer'];
    const requests = [
      { method: 'GET' as const, url: '/v1/pets', headers: t.auth },
      { method: 'POST' as const, url: '/v1/pets', headers: t.auth, payload: { name: 'Rex', categoryId: 1 } },
      { method: 'POST' as const, url: '/v1/pets', headers: t.auth, payload: { name: '' } },
      { method: 'GET' as const, url: '/v1/pets/999999', headers: t.auth },
      { method: 'GET' as const, url: '/v1/pets', headers: { authorization: `Bearer ${unknownKey}` } },
      { method: 'GET' as const, url: '/v1/pets', headers: { authorization: 'Bearer not-a-key-but-secret' } },
      { method: 'GET' as const, url: '/v1/animals', headers: t.auth },
      { method: 'OPTIONS' as const, url: '/v1/pets', headers: { ...t.auth, origin: 'https://shop.example', 'access-control-request-method': 'GET' } },
      // Over the limit of 4 requests with this key (401s and the preflight count against no key): 429s.
      { method: 'GET' as const, url: '/v1/pets', headers: t.auth },
      { method: 'GET' as const, url: '/v1/pets', headers: t.auth },
    ];
    const statuses: number[] = [];
    for (const request of requests) statuses.push((await t.app.inject(request)).statusCode);
    assert.deepEqual(statuses, [200, 201, 400, 404, 401, 401, 404, 204, 429, 429]);
    assert.ok(t.logs.filter((line) => line.msg === 'request').length >= requests.length);
    for (const line of t.logs) {
      const text = JSON.stringify(line);
      for (const secret of secrets) assert.ok(!text.includes(secret), `a log line holds ${secret.slice(0, 8)}…: ${text}`);
      assert.doesNotMatch(text, /authorization/i);
    }
  });
});

describe('request log lines of clients that hung up', { timeout: 30_000 }, () => {
  const requestLines = (t: Pick<TestApp, 'logs'>, requestId: string) => t.logs.filter((line) => line.msg === 'request' && line.requestId === requestId);

  it('POST /v1/pets whose client leaves before sending the whole body > logs one request line saying the client went away', async () => {
    const t = await createTestApp('sqlite');
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.authorization}\r\nContent-Type: application/json\r\n` +
          'Content-Length: 100\r\nExpect: 100-continue\r\nX-Request-Id: gone-before-body\r\n\r\n',
      );
      // 100 Continue: the request has passed its checks and its body is being read.
      const [interim] = (await once(socket, 'data')) as [Buffer];
      assert.match(String(interim), /^HTTP\/1\.1 100 Continue/);
      // Gone as a killed client or a dropped network is: a reset, mid-body.
      socket.write('{"name":"Re');
      socket.resetAndDestroy();
      const line = await t.waitForLog((logged) => logged.msg === 'request' && logged.requestId === 'gone-before-body');
      assert.equal(line.clientAborted, true);
      // The truncated body is answered 400 into the closed connection: the status the service sent.
      assert.equal(line.statusCode, 400);
      assert.equal(line.method, 'POST');
      assert.equal(line.url, '/v1/pets');
      assert.equal(line.route, '/v1/pets');
      assert.equal(typeof line.keyId, 'number');
      assert.equal(typeof line.durationMs, 'number');
    } finally {
      await t.close();
    }
    assert.equal(requestLines(t, 'gone-before-body').length, 1);
  });

  it('a request whose handler answers after its client left > logs one request line, saying the client went away', async () => {
    const database = await createTestDatabase('sqlite');
    const t = logCollector();
    let release!: () => void;
    let enter!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (enter = resolve));
    const app = await buildApp({ db: database.db, config: loadConfig({ LOG_LEVEL: 'info' }), logStream: t.logStream });
    app.get('/held', { config: { public: true } }, async () => {
      enter();
      await released;
      return { late: true };
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write('GET /held HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-while-held\r\n\r\n');
      await entered;
      socket.destroy();
      // The line comes as the server sees the hang-up, while the handler still holds the answer.
      await t.waitForLog((logged) => logged.msg === 'request' && logged.requestId === 'gone-while-held');
      release();
    } finally {
      release();
      await app.close();
      await database.drop();
    }
    const lines = requestLines(t, 'gone-while-held');
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]!.clientAborted, true);
    assert.equal(lines[0]!.statusCode, null, 'nothing was sent before the client left');
    assert.equal(lines[0]!.route, '/held');
  });
});
