/**
 * The other side of refusals-counted.test.ts: a request refused before it is known to be a call of
 * an operation (request-pipeline.ts, phase 1 and the router) is answered without its key being
 * read. It is neither counted against that key's quota nor does it carry RateLimit fields, whatever
 * key it presents: an unknown path, a method the path does not serve, a path parameter the router
 * cannot take, an Expect the service cannot meet, several Host headers. docs/api.md (Rate limits)
 * states this; the quota's count after each refusal proves it.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const WINDOW_START = Date.parse('2027-01-01T00:00:00Z');
const LIMIT = 50;

type Headers = Record<string, string>;
interface Refused {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}

/** Sends raw bytes over a real socket (two Host headers cannot be sent through inject) and parses the answer. */
async function sendRaw(port: number, text: string): Promise<Refused> {
  const socket = connect(port, '127.0.0.1');
  socket.end(text);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('latin1');
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusCode: Number(statusLine.split(' ')[1]), headers, json: () => JSON.parse(body) as unknown };
}

const REFUSALS: Record<string, { status: number; code: string; send(t: TestApp, key: Headers, port: number): Promise<Refused> }> = {
  'an unknown path (404)': {
    status: 404,
    code: 'route_not_found',
    send: (t, key) => t.app.inject({ method: 'GET', url: '/v1/nowhere', headers: key }),
  },
  'a method the path does not serve (405)': {
    status: 405,
    code: 'method_not_allowed',
    send: (t, key) => t.app.inject({ method: 'PUT', url: '/v1/pets', headers: key }),
  },
  'a path parameter the router cannot take (400)': {
    status: 400,
    code: 'bad_request',
    send: (t, key) => t.app.inject({ method: 'GET', url: `/v1/pets/${'9'.repeat(600)}`, headers: key }),
  },
  'an Expect other than 100-continue (417)': {
    status: 417,
    code: 'expectation_failed',
    send: (t, key) => t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...key, expect: 'the-moon' } }),
  },
  'several Host headers (400)': {
    status: 400,
    code: 'bad_request',
    send: (_t, key, port) =>
      sendRaw(port, `GET /v1/pets HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nAuthorization: ${key.authorization}\r\nConnection: close\r\n\r\n`),
  },
};

describe('refusals made before the request is known to be an operation', () => {
  let t: TestApp;
  let port: number;
  const keys = new Map<string, Headers>();
  before(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, now: WINDOW_START });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    // All made before the first request, so one re-read of the usable keys learns them all.
    for (const kind of Object.keys(REFUSALS)) {
      keys.set(kind, { authorization: `Bearer ${(await issueApiKey(t.database.db, { name: `before admission ${kind}` }, () => t.clock.now)).key}` });
    }
  });
  after(() => t.close());

  const remainingOf = (headers: Record<string, unknown>) => Number(/;r=(\d+);/.exec(String(headers['ratelimit']))?.[1]);

  for (const [kind, refusal] of Object.entries(REFUSALS)) {
    it(`${kind} > is the Error shape, carries no RateLimit fields, and costs the key nothing`, async () => {
      const key = keys.get(kind)!;
      const first = await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: key });
      assert.equal(first.statusCode, 200);
      const refused = await refusal.send(t, key, port);
      assertErrorBody(refused, { status: refusal.status, code: refusal.code });
      assert.equal(refused.headers['ratelimit'], undefined);
      assert.equal(refused.headers['ratelimit-policy'], undefined);
      const next = await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: key });
      assert.equal(remainingOf(next.headers), remainingOf(first.headers) - 1, 'the refusal was not counted');
    });
  }
});
