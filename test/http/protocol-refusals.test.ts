/**
 * Refusals made below the routes (by Node's HTTP server, its parser or Fastify's router) answer
 * in the one Error shape with X-Request-Id and get their log line, like every other refusal.
 * Raw bytes on a real port: inject() cannot send a request without Host, nor a broken one.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { protocolProblem } from '../../src/http/protocol-checks.js';
import { type RawAnswer, rawRequest } from '../helpers/raw-http.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('refusals below the routes', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  const send = (text: string) => rawRequest(port, text);

  /** The answer is the Error shape with this status and code, carries a request id, and that request has its log line. */
  const assertShapedRefusal = async (answer: RawAnswer, status: number, code: string, message?: RegExp) => {
    assert.equal(answer.status, status, JSON.stringify(answer));
    assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status']);
    assert.equal(body.code, code);
    assert.equal(body.status, status);
    if (message) assert.match(String(body.message), message);
    const requestId = answer.headers['x-request-id'];
    assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
    // The line is written once the answer has gone out, which may be after the client read it.
    const logged = () => t.logs.some((line) => line.requestId === requestId && line.msg === 'request' && line.statusCode === status);
    for (const deadline = Date.now() + 5000; !logged() && Date.now() < deadline;) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(logged(), `a log line for ${requestId}`);
  };

  it('an HTTP/1.1 request without Host > answers 400 bad_request in the Error shape with X-Request-Id', async () => {
    const answer = await send('GET /v1/pets HTTP/1.1\r\nConnection: close\r\n\r\n');
    await assertShapedRefusal(answer, 400, 'bad_request', /Host/);
  });

  it('an HTTP/1.1 request without Host to a public route > answers the same 400, not the route', async () => {
    const answer = await send('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    await assertShapedRefusal(answer, 400, 'bad_request', /Host/);
  });

  it('an HTTP/1.1 request with two Host headers > answers 400 bad_request (RFC 9112 §3.2)', async () => {
    const answer = await send('GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n');
    await assertShapedRefusal(answer, 400, 'bad_request', /one Host header/);
  });

  it('an HTTP/1.0 request without Host > is served (Host is an HTTP/1.1 requirement)', async () => {
    const answer = await send('GET /healthz HTTP/1.0\r\n\r\n');
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { status: 'ok' });
  });

  it('an expectation other than 100-continue > answers 417 expectation_failed in the Error shape', async () => {
    const answer = await send('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n');
    await assertShapedRefusal(answer, 417, 'expectation_failed', /100-continue/);
  });

  it('a CONNECT request > answers 400 bad_request in the Error shape instead of a dropped connection', async () => {
    const answer = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await assertShapedRefusal(answer, 400, 'bad_request', /CONNECT/);
  });

  for (const [name, text] of [
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space in the path', 'GET /v1/ pets HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a path without its slash', 'GET healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a Content-Length that is no number', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['a URL that does not decode', 'GET /v1/pets/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
  ]) {
    it(`${name} > answers 400 bad_request in the Error shape with X-Request-Id`, async () => {
      await assertShapedRefusal(await send(text!), 400, 'bad_request');
    });
  }
});

describe('protocolProblem', () => {
  const request = (httpVersion: string, rawHeaders: string[]) => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] ??= rawHeaders[i + 1]!;
    return { httpVersion, rawHeaders, headers };
  };

  it('protocolProblem > a request as clients send it, with 100-continue in any case or an empty Host > is no problem', () => {
    assert.equal(protocolProblem(request('1.1', ['Host', 'x'])), undefined);
    assert.equal(protocolProblem(request('1.1', ['host', 'x', 'Expect', '100-Continue'])), undefined);
    // An empty Host is a valid field value (RFC 9112 §3.2); only its absence or a second one is refused.
    assert.equal(protocolProblem(request('1.1', ['Host', ''])), undefined);
    assert.equal(protocolProblem(request('1.0', [])), undefined);
  });

  it('protocolProblem > no Host, two Hosts in any case, another expectation > names the problem', () => {
    assert.equal(protocolProblem(request('1.1', []))?.code, 'bad_request');
    assert.match(String(protocolProblem(request('1.1', ['Host', 'a', 'HOST', 'b']))?.message), /one Host header/);
    assert.equal(protocolProblem(request('1.1', ['Host', 'x', 'Expect', '100-continue, foo']))?.code, 'expectation_failed');
  });
});
