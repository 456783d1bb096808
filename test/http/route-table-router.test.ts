/**
 * The route table (route-table.ts) against Fastify's own router: the `Allow` of a 405 and the
 * Allow-Methods of a preflight must name exactly the methods the router would route at that
 * path, else a client told "not here" (404) can still reach an operation there, or the reverse.
 * c67e687 asked a copy of the router; these hold the table to the same answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { createRouteTable } from '../../src/http/route-table.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

describe('route table against the router', () => {
  it('every probed path > the table names the very methods the router routes there', async () => {
    const app = Fastify();
    const table = createRouteTable(app);
    app.get('/', async () => ({}));
    app.get('/v1/pets', async () => ({}));
    app.post('/v1/pets', async () => ({}));
    for (const method of ['get', 'patch', 'delete'] as const) app[method]('/v1/pets/:petId', async () => ({}));
    app.get('/docs/static/*', async () => ({}));
    await app.ready();
    const probes = [
      '/v1/pets',
      '/v1/pets/',
      '/v1/pets/7',
      '/v1/pets//',
      '/v1//pets',
      '/v1/p%65ts/7',
      '/v1/pets/%2F',
      'http://x/v1/pets',
      'https://x:1/v1/pets/7',
      '/docs/static',
      '/docs/static/',
      '/docs/static/a/b.css',
      '/',
      '*',
      '/v1/pets/7/x',
    ];
    for (const path of probes) {
      const routed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
      assert.deepEqual(table.methodsAt(path), routed, `methods at ${path}`);
    }
    // The router answers these with a stand-in (its bad-URL and too-long-parameter handlers), not a route.
    assert.deepEqual(table.methodsAt(`/v1/pets/${'9'.repeat(150)}`), [], 'a parameter over maxParamLength routes nowhere');
    assert.deepEqual(table.methodsAt('/v1/pets/%ZZ'), [], 'a URL that does not decode routes nowhere');
    await app.close();
  });
});

describe('405 and preflight where the router routes an empty path parameter', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { CORS_ORIGINS: 'https://shop.example' } });
  });
  after(() => t.close());

  it('POST /v1/pets/ > 405 naming the methods of /v1/pets/:petId, where GET /v1/pets/ is routed (400 validation_failed)', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/v1/pets/', headers: t.auth });
    assert.equal(get.json().code, 'validation_failed', 'the router routes /v1/pets/ to getPet');
    const post = await t.app.inject({ method: 'POST', url: '/v1/pets/', headers: t.auth });
    assert.equal(post.statusCode, 405);
    assert.deepEqual(post.json(), { code: 'method_not_allowed', message: 'POST is not allowed on /v1/pets/; allowed: DELETE, GET, HEAD, PATCH', status: 405 });
    assert.equal(post.headers.allow, 'DELETE, GET, HEAD, PATCH');
  });

  it('PUT with a path parameter over maxParamLength > 404 as in c67e687 (GET there answers 400, no method is routed)', async () => {
    const url = `/v1/pets/${'9'.repeat(150)}`;
    assert.equal((await t.app.inject({ method: 'GET', url, headers: t.auth })).statusCode, 400);
    const put = await t.app.inject({ method: 'PUT', url });
    assert.equal(put.statusCode, 404);
    assert.equal(put.json().code, 'route_not_found');
    assert.equal(put.headers.allow, undefined);
  });

  it('a preflight for /v1/pets/ > 204 with the methods of /v1/pets/:petId', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/pets/',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-methods'], 'DELETE, GET, HEAD, PATCH');
  });
});
