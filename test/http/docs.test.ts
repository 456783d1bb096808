import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DOCS_LOGO_SVG } from '../../src/http/docs-branding.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('/docs', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('GET /docs/static/nope.js > answers 404 route_not_found, not 405', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/static/nope.js' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { code: 'route_not_found', message: 'no operation at GET /docs/static/nope.js', status: 404 });
  });

  it('POST /docs/static/index.html > still answers 405 with Allow', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/docs/static/index.html' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'GET, HEAD');
  });

  it('GET /docs/ > is titled "Animal Store API", without Fastify\'s logo, and loads nothing from other hosts', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>Animal Store API<\/title>/);
    assert.doesNotMatch(page.body, /https?:\/\//);
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    const fastifyLogo = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static', 'logo.svg'));
    assert.ok(init.body.includes(Buffer.from(DOCS_LOGO_SVG).toString('base64')), 'the animal store logo is not used');
    assert.ok(!init.body.includes(fastifyLogo.toString('base64')), "Fastify's logo is still used");
    const icon = await t.app.inject({ method: 'GET', url: '/docs/static/theme/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.body, DOCS_LOGO_SVG);
  });
});
