import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '../../src/http/cors-policy.js';
import { sampleValue } from '../helpers/metrics.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SHOP = 'https://shop.example';
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');
const preflight = (url: string, origin: string, method = 'GET', extra: Record<string, string> = {}) => ({
  method: 'OPTIONS' as const,
  url,
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization', ...extra },
});
const corsHeadersOf = (headers: Record<string, unknown>) =>
  Object.keys(headers)
    .filter((name) => name.startsWith('access-control-'))
    .sort();

describe('CORS with a list of origins', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', {
      env: { CORS_ORIGINS: `${SHOP},http://localhost:3000`, RATE_LIMIT_PER_MINUTE: '100' },
      now: Date.parse('2027-01-01T00:00:00Z'),
    });
  });
  after(() => t.close());

  it('a preflight from a listed origin > answers 204 with the origin, the methods of that path, the headers and a max age', async () => {
    const response = await t.app.inject(preflight('/v1/pets', SHOP, 'POST'));
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    assert.equal(response.headers['access-control-allow-origin'], SHOP);
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, POST');
    assert.equal(response.headers['access-control-allow-headers'], CORS_ALLOWED_HEADERS.join(', '));
    assert.equal(response.headers['access-control-allow-headers'], 'Authorization, Content-Type, Idempotency-Key, If-Match, X-Request-Id');
    assert.equal(response.headers['access-control-max-age'], String(CORS_MAX_AGE_SECONDS));
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
    assert.equal(response.headers.vary, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('a preflight for one pet > names the methods of /v1/pets/{petId}, not of the listing', async () => {
    const response = await t.app.inject(preflight('/v1/pets/7?x=1', 'http://localhost:3000'));
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.equal(response.headers['access-control-allow-methods'], 'DELETE, GET, HEAD, PATCH');
  });

  it('preflights > need no key and take nothing from the rate limit', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await t.app.inject(preflight('/v1/pets', SHOP))).statusCode, 204);
    const first = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, origin: SHOP } });
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['ratelimit'], '"per-key";r=99;t=60', 'the first keyed request of the minute');
  });

  it('a preflight from an origin not listed > answers 204 without any Access-Control header', async () => {
    const response = await t.app.inject(preflight('/v1/pets', 'https://evil.example'));
    assert.equal(response.statusCode, 204);
    assert.deepEqual(corsHeadersOf(response.headers), []);
    assert.equal(response.headers.vary, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  });

  it('a preflight for a path with no operation > answers 404 route_not_found', async () => {
    const response = await t.app.inject(preflight('/v1/animals', SHOP));
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { code: 'route_not_found', message: 'no operation at OPTIONS /v1/animals', status: 404 });
  });

  it('an OPTIONS request that is no preflight > still answers 405 with Allow', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/v1/pets' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'GET, HEAD, POST');
    assert.equal(response.json().code, 'method_not_allowed');
  });

  it('a preflight outside /v1 > is not answered as one', async () => {
    const response = await t.app.inject(preflight('/metrics', SHOP));
    assert.equal(response.statusCode, 405);
    assert.deepEqual(corsHeadersOf(response.headers), []);
  });

  it('an actual request from a listed origin > carries Allow-Origin, Expose-Headers and Vary: Origin', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, origin: SHOP }, payload: { name: 'Rex', categoryId: 1 } });
    assert.equal(created.statusCode, 201);
    assert.equal(created.headers['access-control-allow-origin'], SHOP);
    assert.equal(created.headers['access-control-expose-headers'], EXPOSED);
    assert.equal(created.headers.vary, 'Origin');
    assert.deepEqual(corsHeadersOf(created.headers), ['access-control-allow-origin', 'access-control-expose-headers']);
  });

  for (const [scenario, request, status] of [
    ['without a key (401)', { method: 'GET', url: '/v1/pets' }, 401],
    ['for an unknown path (404)', { method: 'GET', url: '/v1/animals' }, 404],
    ['with a bad body (400)', { method: 'POST', url: '/v1/pets', payload: { name: '' }, auth: true }, 400],
    ['with a wrong method (405)', { method: 'DELETE', url: '/v1/pets', auth: true }, 405],
  ] as const) {
    it(`an error answer ${scenario} to a listed origin > carries Allow-Origin and Expose-Headers too`, async () => {
      const response = await t.app.inject({
        method: request.method,
        url: request.url,
        headers: { origin: SHOP, ...('auth' in request ? t.auth : {}) },
        ...('payload' in request ? { payload: request.payload } : {}),
      });
      assert.equal(response.statusCode, status);
      assert.equal(response.json().status, status);
      assert.equal(response.headers['access-control-allow-origin'], SHOP);
      assert.equal(response.headers['access-control-expose-headers'], EXPOSED);
    });
  }

  it('answers to a listed origin > expose every header they carry beyond the CORS-safelisted and transport ones', async () => {
    // Headers a page can always read (Fetch's CORS-safelisted response headers) or that only the transport uses.
    const readableAnyway = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
    const transport = new Set(['connection', 'keep-alive', 'date', 'vary', 'x-content-type-options', 'transfer-encoding']);
    const headers = { ...t.auth, origin: SHOP };
    const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: 'Rex', categoryId: 1 } });
    await t.app.inject({ method: 'POST', url: '/v1/pets', headers, payload: { name: 'Rex', categoryId: 1 } });
    const listed = await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers });
    const deprecated = await t.app.inject({ method: 'GET', url: `/v1/pets/${created.json().id}`, headers });
    const exposed = new Set(
      String(created.headers['access-control-expose-headers'])
        .split(', ')
        .map((name) => name.toLowerCase()),
    );
    for (const response of [created, listed, deprecated]) {
      const unreadable = Object.keys(response.headers).filter(
        (name) => !name.startsWith('access-control-') && !readableAnyway.has(name) && !transport.has(name) && !exposed.has(name),
      );
      assert.deepEqual(unreadable, [], `${response.statusCode} answer to ${response.raw.req.method} ${response.raw.req.url}`);
    }
    assert.ok(listed.headers['ratelimit'] !== undefined && listed.headers.link !== undefined, 'the listing carries the headers checked');
  });

  it('a 429 to a listed origin > carries the CORS headers, so the page can read Retry-After', async () => {
    const other = await createTestApp('sqlite', { env: { CORS_ORIGINS: SHOP, RATE_LIMIT_PER_MINUTE: '1' }, now: Date.parse('2027-01-01T00:00:00Z') });
    try {
      const headers = { ...other.auth, origin: SHOP };
      assert.equal((await other.app.inject({ method: 'GET', url: '/v1/pets', headers })).statusCode, 200);
      const refused = await other.app.inject({ method: 'GET', url: '/v1/pets', headers });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.headers['access-control-allow-origin'], SHOP);
      assert.equal(refused.headers['access-control-expose-headers'], EXPOSED);
      assert.equal(refused.headers['retry-after'], '60');
    } finally {
      await other.close();
    }
  });

  it('an actual request from an origin not listed > gets no CORS header, and the answer it would get anyway', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, origin: 'https://evil.example' } });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(corsHeadersOf(response.headers), []);
    assert.equal(response.headers.vary, 'Origin');
  });

  it('the health checks > carry no CORS headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: SHOP } });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(corsHeadersOf(response.headers), []);
  });

  it('preflights > are counted in the metrics as cors_preflight', async () => {
    // Its own preflights, so the count does not rest on what the tests before it sent.
    const counted = async () =>
      sampleValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, 'animal_store_http_requests_total', {
        operation: 'cors_preflight',
        status: '204',
      }) ?? 0;
    const before = await counted();
    for (const method of ['GET', 'POST', 'DELETE']) assert.equal((await t.app.inject(preflight('/v1/pets/1', SHOP, method))).statusCode, 204);
    assert.equal((await counted()) - before, 3);
  });
});

describe('CORS with *', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { CORS_ORIGINS: '*' } });
  });
  after(() => t.close());

  it('a preflight from any origin > answers 204 with Allow-Origin: *', async () => {
    const response = await t.app.inject(preflight('/v1/pets', 'https://anyone.example', 'POST'));
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, POST');
    assert.equal(response.headers.vary, 'Access-Control-Request-Method, Access-Control-Request-Headers');
  });

  it('an actual request > carries Allow-Origin: * and no Vary, since every origin gets the same answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, origin: 'https://anyone.example' } });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.headers['access-control-expose-headers'], EXPOSED);
    assert.equal(response.headers.vary, undefined);
    assert.equal(response.headers['access-control-allow-credentials'], undefined);
  });
});

describe('CORS off (the default)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('a preflight > answers 405 as before, with no CORS header', async () => {
    const response = await t.app.inject(preflight('/v1/pets', SHOP));
    assert.equal(response.statusCode, 405);
    assert.deepEqual(corsHeadersOf(response.headers), []);
  });

  it('an actual request with an Origin > gets no CORS header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, origin: SHOP } });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(corsHeadersOf(response.headers), []);
    assert.equal(response.headers.vary, undefined);
  });
});
