import assert from 'node:assert/strict';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { MAX_NESTING } from '../../src/http/json-body.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { rawRequest } from '../helpers/raw-http.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `error answers on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { env: { BODY_LIMIT: '2KiB' } });
    });
    after(() => t.close());

    const postRaw = (payload: string, contentType?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...t.auth, ...(contentType ? { 'content-type': contentType } : {}) },
        payload,
      });

    it('unknown route > answers 404 route_not_found', async () => {
      const body = assertErrorBody(await t.app.inject({ method: 'GET', url: '/v1/animals' }), { status: 404, code: 'route_not_found' });
      assert.equal(body.message, 'no operation at GET /v1/animals');
    });

    it('known path with a wrong method > answers 405 method_not_allowed with Allow', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/v1/pets', headers: t.auth });
      assertErrorBody(response, { status: 405, code: 'method_not_allowed' });
      assert.equal(response.headers.allow, 'GET, HEAD, POST');
      const onePet = await t.app.inject({ method: 'PUT', url: '/v1/pets/12' });
      assertErrorBody(onePet, { status: 405, code: 'method_not_allowed' });
      assert.equal(onePet.headers.allow, 'DELETE, GET, HEAD, PATCH');
    });

    it('malformed JSON > answers 400 malformed_json', async () => {
      assertErrorBody(await postRaw('{"name": "Rex",', 'application/json'), { status: 400, code: 'malformed_json' });
    });

    it('an empty JSON body > answers 400 malformed_json', async () => {
      assertErrorBody(await postRaw('', 'application/json'), { status: 400, code: 'malformed_json' });
    });

    it('no body at all > answers 400 validation_failed', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth });
      assertErrorBody(response, { status: 400, code: 'validation_failed' });
    });

    it('a JSON body that gives a field twice > answers 400 malformed_json rather than keeping the last', async () => {
      const body = assertErrorBody(await postRaw('{"name":"x","categoryId":1,"name":"y"}', 'application/json'), { status: 400, code: 'malformed_json' });
      assert.match(body.message, /"name" twice/);
      assert.equal((await t.database.db.selectFrom('pets').selectAll().where('name', '=', 'y').execute()).length, 0);
    });

    it('a JSON body that gives a field twice, once with an escape > answers 400 malformed_json naming it', async () => {
      const body = assertErrorBody(await postRaw('{"name":"x","categoryId":1,"n\\u0061me":"y"}', 'application/json'), { status: 400, code: 'malformed_json' });
      assert.match(body.message, /"name" twice/);
    });

    it('a JSON body nested 30,000 deep > answers 400 malformed_json saying so, not a stack overflow', async () => {
      const other = await createTestApp(dialect);
      try {
        const response = await other.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...other.auth, 'content-type': 'application/json' },
          payload: '['.repeat(30_000) + ']'.repeat(30_000),
        });
        const body = assertErrorBody(response, { status: 400, code: 'malformed_json' });
        assert.equal(body.message, 'body is nested too deeply');
      } finally {
        await other.close();
      }
    });

    it(`a JSON body nested ${MAX_NESTING} deep > is read; ${MAX_NESTING + 1} deep > answers 400 malformed_json`, async () => {
      const nested = (depth: number) => `{"name":"x","categoryId":1,"deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
      const read = assertErrorBody(await postRaw(nested(MAX_NESTING), 'application/json'), { status: 400, code: 'validation_failed' });
      assert.equal(read.message, 'body.deep is not a known field');
      const refused = assertErrorBody(await postRaw(nested(MAX_NESTING + 1), 'application/json'), { status: 400, code: 'malformed_json' });
      assert.equal(refused.message, 'body is nested too deeply');
    });

    it('a compressed body > answers 415 unsupported_media_type', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...t.auth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: '{"name":"x","categoryId":1}',
      });
      assertErrorBody(response, { status: 415, code: 'unsupported_media_type' });
    });

    it('a JSON body with __proto__ > answers 400 malformed_json', async () => {
      assertErrorBody(await postRaw('{"name":"x","categoryId":1,"__proto__":{"admin":true}}', 'application/json'), { status: 400, code: 'malformed_json' });
    });

    it('a body over BODY_LIMIT > answers 413 payload_too_large and stores nothing', async () => {
      const response = await postRaw(JSON.stringify({ name: 'x'.repeat(3000), categoryId: 1 }), 'application/json');
      assertErrorBody(response, { status: 413, code: 'payload_too_large' });
      assert.equal((await t.database.db.selectFrom('pets').selectAll().execute()).length, 0);
    });

    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      it(`a ${contentType} body > answers 415 unsupported_media_type`, async () => {
        assertErrorBody(await postRaw('name=Rex', contentType), { status: 415, code: 'unsupported_media_type' });
      });
    }

    it('application/json with a charset > is accepted', async () => {
      const response = await postRaw('{"name":"Rex","categoryId":1}', 'application/json; charset=utf-8');
      assert.equal(response.statusCode, 201);
    });

    it('every JSON answer > carries no-store, nosniff and a request id', async () => {
      for (const response of [
        await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth }),
        await t.app.inject({ method: 'GET', url: '/v1/nothing' }),
      ]) {
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.equal(response.headers['x-content-type-options'], 'nosniff');
        assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      }
    });

    it('a sane X-Request-Id > is echoed and logged; an unsafe one is replaced', async () => {
      const echoed = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': 'trace-42.a:b' } });
      assert.equal(echoed.headers['x-request-id'], 'trace-42.a:b');
      assert.ok(t.logs.some((line) => line.requestId === 'trace-42.a:b' && line.msg === 'request' && line.statusCode === 200));
      const replaced = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': 'bad id\u0007<script>' } });
      assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    });

    it('each request > is logged as one line without the API key', async () => {
      const before = t.logs.length;
      await t.app.inject({ method: 'GET', url: '/v1/pets?limit=3', headers: { ...t.auth, 'x-request-id': 'one-line' } });
      const lines = t.logs.slice(before).filter((line) => line.requestId === 'one-line');
      assert.equal(lines.length, 1);
      assert.equal(lines[0]!.route, '/v1/pets');
      const key = t.auth.authorization.slice('Bearer '.length);
      assert.ok(!JSON.stringify(t.logs).includes(key));
    });

    it('an unexpected failure > answers 500 internal_error without internals, and logs the cause', async () => {
      const other = await createTestApp(dialect);
      try {
        await sql`drop table pets`.execute(other.database.db);
        const response = await other.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...other.auth, 'x-request-id': 'boom-1' } });
        const body = assertErrorBody(response, { status: 500, code: 'internal_error' });
        assert.doesNotMatch(body.message, /pets|table|sql|relation/i);
        assert.ok(other.logs.some((line) => line.requestId === 'boom-1' && line.level === 50 && JSON.stringify(line.err).match(/pets/)));
      } finally {
        await other.close();
      }
    });
  });
}

describe('health routes', () => {
  it('GET /healthz and /readyz without a key > answer 200', async () => {
    const t = await createTestApp('sqlite');
    try {
      const alive = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(alive.statusCode, 200);
      assert.deepEqual(alive.json(), { status: 'ok' });
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { status: 'ready' });
    } finally {
      await t.close();
    }
  });

  it('GET /readyz when the database is closed > answers 503 service_unavailable with Retry-After', async () => {
    const t = await createTestApp('sqlite');
    try {
      await t.database.close();
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'service_unavailable');
      assert.equal(response.headers['retry-after'], '5');
    } finally {
      // close() again is harmless; it also removes the database file.
      await t.close();
    }
  });
});

describe('errors found before routing', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('a URL that does not decode > answers 400 bad_request in the Error shape with the usual headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets/%E0%A4%A' });
    assertErrorBody(response, { status: 400, code: 'bad_request' });
    assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('a malformed header line > answers 400 bad_request in the Error shape', async () => {
    const { raw: answer, body } = await rawRequest(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', { end: true });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /\r\nContent-Type: application\/json/i);
    assert.deepEqual(JSON.parse(body), { code: 'bad_request', message: 'the HTTP request is malformed', status: 400 });
    const requestId = /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/i.exec(answer)?.[1];
    assert.ok(requestId, 'the answer carries a request id');
    assert.ok(t.logs.some((line) => line.requestId === requestId && line.msg === 'request' && line.statusCode === 400));
  });

  it('a client that aborts its upload > is not mistaken for a database outage', async () => {
    const before = t.logs.length;
    const earlier = new Set(t.logs);
    const key = t.auth.authorization;
    // Half the body, then the connection drops once those bytes are sent.
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
          () => socket.destroy(),
        );
      });
      socket.on('close', () => resolve());
    });
    await t.waitForLog((line) => line.msg === 'request' && !earlier.has(line));
    const lines = t.logs.slice(before);
    assert.ok(
      lines.some((line) => line.msg === 'request'),
      'the aborted request has its log line',
    );
    assert.ok(!lines.some((line) => line.msg === 'database unavailable'), JSON.stringify(lines));
  });

  it('headers beyond the server limit > answer 431 headers_too_large in the Error shape', async () => {
    const { raw: answer, body } = await rawRequest(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, { end: true });
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.deepEqual(JSON.parse(body), { code: 'headers_too_large', message: 'the request headers are too large', status: 431 });
  });
});
