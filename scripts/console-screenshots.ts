/**
 * The README's pictures of the console, made by code: `npm run screenshots` (which builds first)
 * starts the real service on a temporary SQLite store, fills it through the public API with a
 * small demo store (animals of every status, orders in several states, a webhook endpoint with its
 * deliveries to a receiver on 127.0.0.1, a second API key), signs in with Chromium and writes one
 * PNG per main view into docs/screenshots/ (or the folder given as the first argument).
 *
 * The same names, data and viewport every run, in English and UTC, so rerunning it is how the
 * images are refreshed; only times and the receiver's port change. Key prefixes are painted over:
 * no image shows a key, a secret or any part of one.
 * test/e2e/console-screenshots.browser.e2e.test.ts runs it and checks its images against the README.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { signIn, startConsoleService, type ConsoleService } from '../test/helpers/console-browser.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/machine-tools.js';
import { REPO_ROOT } from '../test/helpers/spawn-service.js';
import { waitUntil } from '../test/helpers/wait-for.js';

/** Every image's size in pixels: modest, so each file stays small and the README loads fast. */
export const SCREENSHOT_VIEWPORT = { width: 1120, height: 680 } as const;

/** The images, in the order the README shows them: file name and what it shows. */
export const SCREENSHOTS = [
  { file: 'animals.png', title: 'Animals' },
  { file: 'animal.png', title: "An animal's page" },
  { file: 'orders.png', title: 'Orders' },
  { file: 'activity.png', title: 'Activity' },
  { file: 'webhooks.png', title: 'Webhooks' },
  { file: 'webhook-endpoint.png', title: "A webhook endpoint's deliveries" },
  { file: 'api-keys.png', title: 'API keys' },
] as const;

type ScreenshotFile = (typeof SCREENSHOTS)[number]['file'];

export const DEFAULT_SCREENSHOTS_DIR = join(REPO_ROOT, 'docs', 'screenshots');

const STUCK_MS = 60_000;

/** The demo store's animals: [name, category, status], in the order they are added. */
const ANIMALS: [string, number, 'available' | 'pending' | 'sold'][] = [
  ['Biscuit', 1, 'available'],
  ['Clementine', 2, 'available'],
  ['Pepper', 1, 'available'],
  ['Miso', 2, 'available'],
  ['Juniper', 3, 'available'],
  ['Olive', 4, 'pending'],
  ['Hazel', 1, 'available'],
  ['Rocket', 5, 'sold'],
  ['Nutmeg', 2, 'available'],
  ['Ziggy', 3, 'available'],
  ['Pickles', 4, 'available'],
  ['Marble', 2, 'available'],
];

/** A webhook receiver on 127.0.0.1 that answers 200 to everything; port 9000 (the README's) when free. */
async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const listen = (port: number) =>
    new Promise<Server>((done, fail) => {
      const server = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.end());
      });
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done(server));
    });
  const server = await listen(9000).catch(() => listen(0));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/animal-store`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Calls the API with the signed-in key; a refusal stops the run. */
async function call<T = { id: number }>(store: ConsoleService, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await store.api(method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

/** Fills the store as a shop's morning would, through the public API only. Answers the animal to show on its own page. */
async function fillStore(store: ConsoleService, receiverUrl: string): Promise<{ featuredPetId: number; endpointId: number }> {
  const endpoint = await call(store, 'POST', '/webhook-endpoints', {
    url: receiverUrl,
    events: ['pet.*', 'order.*'],
    description: 'Shop front display',
  });
  const ids = new Map<string, number>();
  for (const [name, categoryId, status] of ANIMALS) ids.set(name, (await call(store, 'POST', '/pets', { name, categoryId, status })).id);
  const order = async (name: string) => (await call(store, 'POST', '/store/orders', { petId: ids.get(name) })).id;
  const delivered = await order('Biscuit');
  await call(store, 'POST', `/store/orders/${delivered}/approve`);
  await call(store, 'POST', `/store/orders/${delivered}/deliver`);
  const approved = await order('Pepper');
  await call(store, 'POST', `/store/orders/${approved}/approve`);
  const cancelled = await order('Juniper');
  await call(store, 'POST', `/store/orders/${cancelled}/cancel`);
  await order('Juniper');
  await order('Nutmeg');
  await call(store, 'PATCH', `/pets/${ids.get('Clementine')}`, { name: 'Clementine the Second' });
  await call(store, 'POST', '/api-keys', { name: 'Front desk tablet', scopes: ['pets:read', 'orders:read', 'orders:write'] });
  await call(store, 'POST', '/api-keys', { name: 'Website catalogue', scopes: ['pets:read'] });
  // Every event delivered before the picture, so the deliveries show their outcome, not "pending".
  await waitUntil(
    async () => {
      const deliveries = await call<{ state: string }[]>(store, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=100`);
      return deliveries.length > 0 && deliveries.every((delivery) => delivery.state !== 'pending');
    },
    { deadlineMs: STUCK_MS, everyMs: 100, what: 'the webhook deliveries to finish' },
  );
  return { featuredPetId: ids.get('Juniper')!, endpointId: endpoint.id };
}

/**
 * Makes every image into `dir` (created when missing) and answers the paths written. Needs
 * `npm run build` first (the service and the console are the built ones) and /usr/bin/chromium.
 */
export async function makeConsoleScreenshots(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const receiver = await startReceiver();
  const store = await startConsoleService('sqlite', { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { keyName: 'Shop manager' });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: STUCK_MS });
  try {
    const { featuredPetId, endpointId } = await fillStore(store, receiver.url);
    const context = await browser.newContext({
      viewport: SCREENSHOT_VIEWPORT,
      deviceScaleFactor: 1,
      locale: 'en-GB',
      timezoneId: 'UTC',
      reducedMotion: 'reduce',
      colorScheme: 'light',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(STUCK_MS);
    await page.goto(store.consoleUrl);
    await signIn(page, store.key);
    const written: string[] = [];
    const shoot = async (file: ScreenshotFile, mask: ReturnType<Page['locator']>[] = []) => {
      // The focus ring of the heading a view focuses on arrival is not part of the picture.
      await page.evaluate('document.activeElement?.blur()');
      const path = join(dir, file);
      await page.screenshot({ path, animations: 'disabled', caret: 'hide', mask, maskColor: '#d0d0d0' });
      written.push(path);
    };
    const open = async (path: string, heading: string, ready: () => Promise<void>) => {
      await page.goto(store.consoleUrl + path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await ready();
    };
    const rows = (count: number) => async () => {
      await page
        .locator('tbody tr')
        .nth(count - 1)
        .waitFor();
    };

    await open('animals', 'Animals', rows(ANIMALS.length));
    await shoot('animals.png');
    await open(`animals/${featuredPetId}`, 'Juniper', rows(2));
    await shoot('animal.png');
    await open('orders', 'Orders', rows(5));
    await shoot('orders.png');

    await open('activity', 'Activity', () => page.locator('.feed-state[data-state="live"]').waitFor());
    const biscuit = await call<{ id: number }[]>(store, 'GET', '/pets?name=Biscuit');
    await call(store, 'PATCH', `/pets/${biscuit[0]!.id}`, { name: 'Biscuit (collected)' });
    const newcomer = await call(store, 'POST', '/pets', { name: 'Waffles', categoryId: 1 });
    const placed = await call(store, 'POST', '/store/orders', { petId: newcomer.id });
    await call(store, 'POST', `/store/orders/${placed.id}/approve`);
    await rows(4)();
    await shoot('activity.png');

    await open('webhooks', 'Webhooks', rows(1));
    await shoot('webhooks.png');
    await open(`webhooks/${endpointId}`, `Webhook endpoint ${endpointId}`, async () => {
      await page.getByRole('heading', { name: 'Deliveries', level: 2 }).waitFor();
      await page
        .getByRole('table')
        .filter({ has: page.getByRole('caption') })
        .locator('tbody tr')
        .nth(4)
        .waitFor();
    });
    // The deliveries are the point of this picture: scrolled to the top, the endpoint's details above them.
    await page.evaluate("document.getElementById('deliveries-title').scrollIntoView()");
    await shoot('webhook-endpoint.png');
    await open('api-keys', 'API keys', rows(3));
    // A prefix is not the key, but no picture should show any part of one.
    await shoot('api-keys.png', [page.locator('td code')]);
    await context.close();
    return written;
  } finally {
    await browser.close();
    await store.stop();
    await receiver.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? DEFAULT_SCREENSHOTS_DIR);
  const written = await makeConsoleScreenshots(dir);
  for (const path of written) console.log(path);
}
