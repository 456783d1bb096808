import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { issueApiKey, revokeKey } from '../../src/keys/keys.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `bearer authentication on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      // The key cache is off so that revocation is seen at once; its bound is tested in keys.service.test.ts.
      t = await createTestApp(dialect, { env: { KEY_CACHE_TTL_MS: '0' } });
    });
    after(() => t.close());

    const operations = [
      { method: 'GET' as const, url: '/v1/pets' },
      { method: 'POST' as const, url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } },
      { method: 'GET' as const, url: '/v1/pets/1' },
    ];

    for (const operation of operations) {
      it(`${operation.method} ${operation.url} without Authorization > answers 401 with a Bearer challenge`, async () => {
        const response = await t.app.inject(operation);
        assert.equal(response.statusCode, 401);
        assert.deepEqual(response.json(), {
          code: 'unauthorized',
          message: 'a valid API key is required: send Authorization: Bearer <API_KEY>',
          status: 401,
        });
        assert.equal(response.headers['www-authenticate'], 'Bearer realm="animal-store"');
      });
    }

    it('a request with no key and an invalid body > answers 401, not 400', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: '{oops' });
      assert.equal(response.statusCode, 401);
      const wrongType = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'text/plain' }, payload: 'x' });
      assert.equal(wrongType.statusCode, 401);
    });

    for (const [scenario, header] of [
      ['an unknown key', 'Bearer ask_0000000000000000000000000000000000000000000'],
      ['a token of the wrong shape', 'Bearer hunter2'],
      ['the Basic scheme', 'Basic dXNlcjpwYXNz'],
      ['an empty bearer', 'Bearer '],
    ]) {
      it(`${scenario} > answers 401 with an error in the challenge`, async () => {
        const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: header! } });
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().code, 'unauthorized');
        assert.match(String(response.headers['www-authenticate']), /^Bearer realm="animal-store", error="invalid_(token|request)"$/);
      });
    }

    it('the scheme in any case > is accepted', async () => {
      const key = t.auth.authorization.slice('Bearer '.length);
      for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
        const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: `${scheme} ${key}` } });
        assert.equal(response.statusCode, 200, scheme);
      }
    });

    it('a revoked key > answers 401', async () => {
      const issued = await issueApiKey(t.database.db, { name: 'soon revoked' });
      const headers = { authorization: `Bearer ${issued.key}` };
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers })).statusCode, 200);
      await revokeKey(t.database.db, issued.id);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers })).statusCode, 401);
    });

    it('an expired key > answers 401 from its expiry instant on', async () => {
      const issued = await issueApiKey(t.database.db, { name: 'short', expiresInMs: 60_000 }, () => t.clock.now);
      const headers = { authorization: `Bearer ${issued.key}` };
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers })).statusCode, 200);
      t.clock.now += 60_000;
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers })).statusCode, 401);
      t.clock.now -= 60_000;
    });

    for (const order of ['the valid key first', 'the valid key second']) {
      it(`two Authorization headers, ${order} > answer 400 bad_request over a real connection`, async () => {
        const bogus = 'Bearer ask_0000000000000000000000000000000000000000000';
        const [first, second] = order === 'the valid key first' ? [t.auth.authorization, bogus] : [bogus, t.auth.authorization];
        const answer = await rawRequest(
          t,
          `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${first}\r\nauthorization: ${second}\r\nConnection: close\r\n\r\n`,
        );
        assert.match(answer, /^HTTP\/1\.1 400 /);
        assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
          code: 'bad_request',
          message: 'send one Authorization header, not several',
          status: 400,
        });
      });
    }

    for (const [url, contentType] of [
      ['/v1/openapi.json', /^application\/json/],
      ['/docs', /^text\/html/],
      ['/healthz', /^application\/json/],
      ['/readyz', /^application\/json/],
    ] as const) {
      it(`GET ${url} without a key > answers 200 with its content`, async () => {
        const response = await t.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200);
        assert.match(String(response.headers['content-type']), contentType);
        assert.equal(response.headers['www-authenticate'], undefined);
      });
    }
  });
}

/** Sends bytes exactly as written (Node's clients merge repeated headers) and answers all the server wrote back. */
async function rawRequest(t: TestApp, request: string): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
