/**
 * /docs in a real browser (Debian's headless Chromium driven by playwright-core): a user
 * authorises with a key, runs "Try it out" on createPet and sees 201, and the page fetches
 * nothing from another host. Without /usr/bin/chromium the test is reported as skipped.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type RunningService, runCli, spawnService, stopAllServices } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const chromiumMissing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install chromium)`;

/** A port free right now: /docs's "Try it out" calls the document's server URL, so the service must know its own port before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('/docs in a real browser', () => {
  let browser: Browser;
  let service: RunningService;
  let key: string;
  let removeDatabase: () => Promise<void>;

  before(async () => {
    if (chromiumMissing) return;
    const place = await createEmptyDatabaseUrl('sqlite');
    removeDatabase = place.remove;
    await runCli(['migrate'], { DATABASE_URL: place.url });
    const created = await runCli(['keys', 'create', '--name', 'docs-reader'], { DATABASE_URL: place.url });
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trim().split('\n').at(-1)!;
    const port = await freePort();
    service = await spawnService({ databaseUrl: place.url, env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}/v1` } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    await stopAllServices();
    await removeDatabase?.();
  });

  it('/docs > authorise with a key and "Try it out" on createPet > 201, and nothing fetched from another host', { skip: chromiumMissing, timeout: 90_000 }, async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      await page.goto(`${service.baseUrl}/docs`);
      await page.getByText('Animal Store API').first().waitFor();

      await page.locator('.auth-wrapper .btn.authorize').click();
      await page.locator('.auth-container input[type="text"], .auth-container input[type="password"]').first().fill(key);
      await page.locator('.auth-btn-wrapper .btn.modal-btn.auth.authorize').click();
      await page.locator('.auth-btn-wrapper .btn-done').click();

      const operation = page.locator('#operations-pets-createPet');
      await operation.locator('.opblock-summary').first().click();
      const tryItOut = operation.locator('.try-out__btn');
      if ((await tryItOut.count()) > 0 && /try it out/i.test(await tryItOut.innerText())) await tryItOut.click();
      await operation.locator('.btn.execute').click();

      const status = operation.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor();
      assert.equal((await status.innerText()).trim(), '201');
      const body = await operation.locator('.live-responses-table tbody .response-col_description pre').first().innerText();
      assert.match(body, /"id": \d+/);

      const elsewhere = requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).hostname !== '127.0.0.1');
      assert.deepEqual(elsewhere, [], 'the page fetched from another host');
      assert.ok(requested.some((url) => url.endsWith('/v1/pets')), 'the POST went to the service');
    } finally {
      await page.close();
    }
  });
});
