/**
 * /console/ as the service serves it, on a console build made by the test (a page and two hashed
 * assets in a folder of its own): the page at every view's address, its Content-Security-Policy,
 * the caching of hashed files, gzip, a missing file in the Error shape, no key needed, nothing in
 * openapi.json, and CONSOLE_ENABLED=false turning it all off.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CSP } from '../../src/console/console-headers.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const PAGE = '<!doctype html><html lang="en"><head><script type="module" src="/console/assets/index-abc123.js"></script></head><body></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

function consoleBuild(): string {
  const folder = mkdtempSync(join(tmpdir(), 'console-build-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(join(folder, 'index.html'), PAGE);
  writeFileSync(join(folder, 'assets/index-abc123.js'), SCRIPT);
  writeFileSync(join(folder, 'assets/index-def456.css'), 'body{margin:0}');
  return folder;
}

describe('/console', () => {
  let t: TestApp;
  let folder: string;
  before(async () => {
    folder = consoleBuild();
    t = await createTestApp('sqlite', { hooks: { consoleFolder: folder } });
  });
  after(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('GET /console > redirects to /console/, its query kept', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/console' });
    assert.equal(bare.statusCode, 301);
    assert.equal(bare.headers.location, '/console/');
    const withQuery = await t.app.inject({ method: 'GET', url: '/console?x=1' });
    assert.equal(withQuery.headers.location, '/console/?x=1');
  });

  it("GET /console/ and every view's address, without a key > answer the page, with the CSP, not cached without asking, never counted", async () => {
    for (const url of ['/console/', '/console/animals', '/console/animals/42', '/console/orders?status=placed', '/console/api-keys']) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.body, PAGE, url);
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(response.headers['content-security-policy'], CONSOLE_CSP);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.equal(response.headers['ratelimit-policy'], undefined, 'not an API operation: no quota');
    }
  });

  it('the Content-Security-Policy > allows only the own origin, no inline script or style, and no framing', () => {
    const directives = new Map(CONSOLE_CSP.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]));
    assert.equal(directives.get('default-src'), "'none'");
    for (const name of ['script-src', 'style-src', 'connect-src', 'img-src']) assert.equal(directives.get(name), "'self'", name);
    assert.equal(directives.get('frame-ancestors'), "'none'");
    assert.equal(directives.get('base-uri'), "'none'");
    assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval|\*|data:|https?:/);
  });

  it('a hashed asset > is kept by browsers for a year, immutable; gzip when asked', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/console/assets/index-abc123.js' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, SCRIPT);
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-security-policy'], CONSOLE_CSP);
    assert.equal(plain.headers['content-encoding'], undefined);
    const zipped = await t.app.inject({ method: 'GET', url: '/console/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers.vary, 'accept-encoding');
    assert.equal(gunzipSync(zipped.rawPayload).toString(), SCRIPT);
    assert.ok(zipped.rawPayload.length < SCRIPT.length / 10);
    const css = await t.app.inject({ method: 'GET', url: '/console/assets/index-def456.css' });
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  });

  it('a missing file > answers 404 route_not_found in the Error shape, never the page', async () => {
    for (const url of ['/console/assets/index-gone.js', '/console/assets/', '/console/favicon.ico', '/console/animals/logo.png']) {
      const response = await t.app.inject({ method: 'GET', url });
      assertErrorBody(response, { status: 404, code: 'route_not_found', message: /the console has no file/ });
    }
  });

  it('POST /console/animals > 405 naming GET and HEAD', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/console/animals' });
    assertErrorBody(response, { status: 405, code: 'method_not_allowed', message: /allowed: GET, HEAD/ });
  });

  it('the OpenAPI document > names no /console path', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(document.paths).filter((path) => path.includes('console')),
      [],
    );
  });
});

describe('/console with CONSOLE_ENABLED=false', () => {
  let t: TestApp;
  let folder: string;
  before(async () => {
    folder = consoleBuild();
    t = await createTestApp('sqlite', { env: { CONSOLE_ENABLED: 'false' }, hooks: { consoleFolder: folder } });
  });
  after(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the page, a view and an asset > answer 404 route_not_found', async () => {
    for (const url of ['/console', '/console/', '/console/animals', '/console/assets/index-abc123.js']) {
      assertErrorBody(await t.app.inject({ method: 'GET', url }), { status: 404, code: 'route_not_found', message: /^no operation at GET / });
    }
  });
});

describe('/console on a server where the console was not built', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { hooks: { consoleFolder: join(tmpdir(), 'no-console-build-here') } });
  });
  after(() => t.close());

  it('GET /console/ > 404 saying how to build it', async () => {
    assertErrorBody(await t.app.inject({ method: 'GET', url: '/console/' }), { status: 404, code: 'route_not_found', message: /npm run build/ });
  });
});
