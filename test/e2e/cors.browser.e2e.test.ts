/**
 * A real cross-origin call: a page served from one origin (a tiny node:http server) runs
 * `fetch` in headless Chromium against the real service on another origin, with a bearer key,
 * and reads the headers CORS exposes. Debian's `chromium` is driven by playwright-core, which
 * never downloads a browser; without /usr/bin/chromium the suite is reported as skipped.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, NO_CHROMIUM } from '../helpers/machine-tools.js';
import { type RunningService, runCli, spawnService, stopAllServices } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

/** A page server on 127.0.0.1: its origin is `http://127.0.0.1:PORT`, another origin than the service's port. */
async function servePage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>shop</title><p>a shop on another origin</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface BrowserAnswer {
  ok: boolean;
  status?: number;
  link?: string | null;
  requestId?: string | null;
  location?: string | null;
  rateLimitHeaders?: (string | null)[];
  body?: unknown;
  error?: string;
}

/** Runs fetch in the page and answers what the page could read. */
function fetchFromPage(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<BrowserAnswer> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        return {
          ok: true,
          status: response.status,
          link: response.headers.get('link'),
          requestId: response.headers.get('x-request-id'),
          location: response.headers.get('location'),
          rateLimitHeaders: [response.headers.get('ratelimit-policy'), response.headers.get('retry-after')],
          body: await response.json(),
        };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    },
    { url, init },
  );
}

describe('CORS from a real browser', () => {
  // Each test says "skipped" on its own (a skipped suite would count no test at all).
  const needsChromium = { skip: NO_CHROMIUM };
  let browser: Browser;
  let service: RunningService;
  let shop: { server: Server; origin: string };
  let stranger: { server: Server; origin: string };
  let key: string;
  let removeDatabase: () => Promise<void>;

  before(async () => {
    if (NO_CHROMIUM) return;
    shop = await servePage();
    stranger = await servePage();
    const place = await createEmptyDatabaseUrl('sqlite');
    removeDatabase = place.remove;
    await runCli(['migrate'], { DATABASE_URL: place.url });
    const created = await runCli(['keys', 'create', '--name', 'browser'], { DATABASE_URL: place.url });
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trim();
    service = await spawnService({ databaseUrl: place.url, env: { CORS_ORIGINS: shop.origin } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    await stopAllServices();
    for (const page of [shop, stranger]) if (page) await new Promise((resolve) => page.server.close(resolve));
    await removeDatabase?.();
  });

  const openPage = async (origin: string) => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    return page;
  };

  it('a page on a listed origin > adds an animal and lists a page, reading Location, Link and X-Request-Id', needsChromium, async () => {
    const page = await openPage(shop.origin);
    try {
      assert.notEqual(new URL(service.baseUrl).origin, shop.origin, 'the service is on another origin than the page');
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      for (const name of ['Rex', 'Tom']) {
        // A JSON body and an Authorization header: the browser preflights this POST.
        const created = await fetchFromPage(page, `${service.baseUrl}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) });
        assert.equal(created.ok, true, created.error);
        assert.equal(created.status, 201);
        assert.match(String(created.location), /^\/v1\/pets\/\d+$/);
      }

      const listed = await fetchFromPage(page, `${service.baseUrl}/v1/pets?limit=1`, {
        headers: { authorization: `Bearer ${key}`, 'x-request-id': 'browser-call-1' },
      });
      assert.equal(listed.ok, true, listed.error);
      assert.equal(listed.status, 200);
      assert.equal((listed.body as { name: string }[])[0]!.name, 'Rex');
      assert.match(String(listed.link), /^<\/v1\/pets\?limit=1&cursor=[^>]+>; rel="next"$/);
      assert.equal(listed.requestId, 'browser-call-1');
      // The service saw the preflights the browser sent before each POST.
      await service.waitForLog((line) => line.msg === 'request' && line.method === 'OPTIONS' && line.statusCode === 204);
    } finally {
      await page.close();
    }
  });

  it('an error answer to a listed origin > is readable by the page, in the Error shape', needsChromium, async () => {
    const page = await openPage(shop.origin);
    try {
      const refused = await fetchFromPage(page, `${service.baseUrl}/v1/pets`, {
        headers: { authorization: 'Bearer ask_0000000000000000000000000000000000000000000' },
      });
      assert.equal(refused.ok, true, refused.error);
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, { code: 'unauthorized', message: 'the API key is unknown, expired or revoked', status: 401 });
      assert.match(String(refused.requestId), /^[0-9a-f-]{36}$/);
    } finally {
      await page.close();
    }
  });

  it('a page on an origin not listed > is refused by the browser itself', needsChromium, async () => {
    const page = await openPage(stranger.origin);
    try {
      const refused = await fetchFromPage(page, `${service.baseUrl}/v1/pets`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(refused.ok, false);
      assert.match(String(refused.error), /TypeError: Failed to fetch/);
    } finally {
      await page.close();
    }
  });
});
