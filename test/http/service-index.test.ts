import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { allPublishedDocs } from '../helpers/published-docs.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('GET /', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('GET / without a key > answers 200 JSON naming where the docs, the contract, the API and the health checks are', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const body = response.json() as { name: string; links: Record<string, string>; authentication: string };
    assert.equal(body.name, 'Animal Store API');
    assert.deepEqual(body.links, { docs: '/docs', openapi: '/v1/openapi.json', api: '/v1', health: '/healthz', ready: '/readyz' });
    assert.match(body.authentication, /Authorization: Bearer <API_KEY>/);
    assert.match(body.authentication, /animal-store keys create/);
    assert.equal(response.headers['ratelimit-policy'], undefined, 'not an operation: never counted');
  });

  it('GET / > every link it gives answers without a key (the API itself with its 401)', async () => {
    const { links } = (await t.app.inject({ method: 'GET', url: '/' })).json() as { links: Record<string, string> };
    for (const [name, path] of Object.entries(links)) {
      const response = await t.app.inject({ method: 'GET', url: name === 'api' ? `${path}/pets` : path });
      assert.equal(response.statusCode, name === 'api' ? 401 : 200, `${name}: ${path}`);
    }
  });

  it('HEAD / > answers 200 without a body; POST / answers 405 naming GET and HEAD', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const post = await t.app.inject({ method: 'POST', url: '/' });
    assertErrorBody(post, { status: 405, code: 'method_not_allowed', message: /allowed: GET, HEAD/ });
  });

  it('an unknown path > still answers 404 route_not_found in the Error shape', async () => {
    for (const url of ['/nothing', '/index.html', '/v1', '/v2/pets']) {
      assertErrorBody(await t.app.inject({ method: 'GET', url }), { status: 404, code: 'route_not_found', message: /^no operation at GET / });
    }
  });

  it('the published docs > list GET / with the same links', () => {
    const readme = allPublishedDocs();
    assert.match(readme, /`GET \/` answers 200 without a key/);
    for (const path of ['/docs', '/v1/openapi.json', '/healthz', '/readyz']) assert.ok(readme.includes(`\`${path}\``), path);
  });
});
