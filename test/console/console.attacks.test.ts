/**
 * /console/ as its hostile review attacked it over HTTP: the console's headers (CSP, framing,
 * Referer) on every answer under /console, refusals of other methods included; paths that try to
 * leave the console's files (dot segments plain, encoded and double-encoded, backslashes, NUL);
 * and CONSOLE_ENABLED=false answering 404 in the Error shape to every method.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CSP } from '../../src/console/console-headers.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const PAGE = '<!doctype html><html lang="en"><head><script type="module" src="/console/assets/index-abc123.js"></script></head><body></body></html>';

function consoleBuild(): string {
  const folder = mkdtempSync(join(tmpdir(), 'console-attacks-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(join(folder, 'index.html'), PAGE);
  writeFileSync(join(folder, 'assets/index-abc123.js'), 'export {};');
  return folder;
}

const assertConsoleHeaders = (response: { headers: Record<string, unknown> }, what: string) => {
  assert.equal(response.headers['content-security-policy'], CONSOLE_CSP, `${what}: the CSP`);
  assert.equal(response.headers['x-frame-options'], 'DENY', `${what}: no framing`);
  assert.equal(response.headers['referrer-policy'], 'no-referrer', `${what}: no Referer`);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
};

describe('/console attacked', () => {
  let t: TestApp;
  let folder: string;
  before(async () => {
    folder = consoleBuild();
    // A link out of the build, as a careless deployment might leave: never followed at request time.
    symlinkSync('/etc', join(folder, 'assets', 'etc'));
    t = await createTestApp('sqlite', { hooks: { consoleFolder: folder } });
  });
  after(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('Attack: methods other than GET and HEAD under /console > 405 in the Error shape, with Allow and the console headers', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/console', '/console/', '/console/animals/1', '/console/assets/index-abc123.js']) {
        const response = await t.app.inject({ method, url, payload: method === 'DELETE' ? undefined : '<script>alert(1)</script>' });
        assertErrorBody(response, { status: 405, code: 'method_not_allowed', message: /is not allowed/ });
        assert.equal(response.headers.allow, 'GET, HEAD');
        assertConsoleHeaders(response, `${method} ${url}`);
      }
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/console/animals' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assertConsoleHeaders(head, 'HEAD');
  });

  it('the API under /v1 > does not get the console headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets' });
    assert.equal(response.headers['content-security-policy'], undefined);
  });

  it('Attack: paths out of the console (dot segments plain, encoded, double-encoded, backslashes, NUL, a symlink) > never a file outside the build', async () => {
    for (const url of [
      '/console/assets/../../package.json',
      '/console/assets/%2e%2e/%2e%2e/package.json',
      '/console/assets/%252e%252e/%252e%252e/package.json',
      '/console/assets\\..\\..\\package.json',
      '/console/assets/..%5c..%5cpackage.json',
      '/console/assets/index-abc123.js%00.html',
      '/console/assets/etc/passwd',
      `/console/assets/${'a/'.repeat(5000)}x.js`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.ok([400, 404].includes(response.statusCode), `${url}: ${response.statusCode}`);
      assert.doesNotMatch(response.body, /"dependencies"|root:x:0/, url);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8', url);
    }
  });
});

describe('/console attacked with CONSOLE_ENABLED=false', () => {
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

  it('every method and address under /console > 404 route_not_found in the Error shape, nothing of the page', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE'] as const) {
      for (const url of ['/console', '/console/', '/console/animals/%3Cscript%3E', '/console/assets/index-abc123.js', '/console/index.html']) {
        const response = await t.app.inject({ method, url });
        assert.equal(response.statusCode, 404, `${method} ${url}`);
        if (method !== 'HEAD') assertErrorBody(response, { status: 404, code: 'route_not_found', message: /^no operation at / });
      }
    }
  });
});
