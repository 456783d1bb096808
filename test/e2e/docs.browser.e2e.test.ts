/**
 * /docs in a real browser (Debian's headless Chromium driven by playwright-core), opened at both
 * addresses a user may type, http://127.0.0.1:PORT/docs (the one the service prints) and
 * http://localhost:PORT/docs: a user pastes a key under Authorize and clicks Execute on every
 * operation with the examples as shown; each must answer its success status at the first click,
 * on a store seeded with the rows the examples name (SAMPLE_STORE), whatever order the clicks
 * come in, and the page must fetch nothing from another origin. Without /usr/bin/chromium the
 * tests are reported as skipped.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { SAMPLE_STORE } from '../../src/docs-examples.js';
import { CHROMIUM, CHROMIUM_ARGS, NO_CHROMIUM } from '../helpers/machine-tools.js';
import { runCli, spawnService, stopAllServices } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

/** A port free right now: the service is started as a user would, on a port of its own, with PUBLIC_BASE_URL unset. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Operation {
  operationId: string;
  tag: string;
  /** The lowest 2xx the document gives the operation. */
  success: string;
}

/** Every operation of the document /docs shows, in the order the page lists them. */
async function operationsOf(origin: string): Promise<Operation[]> {
  const document = (await (await fetch(`${origin}/docs/json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string; tags: string[]; responses: Record<string, unknown> }>>;
  };
  const operations: Operation[] = [];
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      const success = Object.keys(operation.responses)
        .filter((status) => /^2\d\d$/.test(status))
        .sort()[0];
      assert.ok(success, `${operation.operationId} documents no success`);
      operations.push({ operationId: operation.operationId, tag: operation.tags[0]!, success });
    }
  }
  return operations;
}

/**
 * The rows SAMPLE_STORE names, made through the API of a fresh store (ids count from 1 on
 * SQLite): animals up to the highest id named, the named ones as the examples describe them,
 * orders up to the highest id named, each in the state its action needs, and webhook endpoints up
 * to the highest id named, then API keys after the page's own (the store's first) up to the highest id
 * named. The other orders are placed and cancelled on the first animal, which leaves it available.
 */
async function seedSampleStore(apiBase: string, key: string): Promise<void> {
  const call = async (method: string, path: string, body?: unknown): Promise<{ id: number }> => {
    const response = await fetch(`${apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) assert.fail(`seeding: ${method} ${path} answered ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
  const named = new Map<number, { name: string; categoryId: number }>([
    [SAMPLE_STORE.petToRemove, { name: 'Max', categoryId: 1 }],
    [SAMPLE_STORE.petToChange, { name: 'Bella', categoryId: 1 }],
    [SAMPLE_STORE.petToRead, { name: 'Rex', categoryId: 3 }],
  ]);
  // The animal placeOrder orders is Rex today; one of its own must be kept out of the orders below too.
  if (!named.has(SAMPLE_STORE.petToOrder)) named.set(SAMPLE_STORE.petToOrder, { name: 'Luna', categoryId: 2 });
  const petIds = [...named.keys()];
  for (let id = 1; id <= Math.max(...petIds); id++) {
    const pet = await call('POST', '/pets', named.get(id) ?? { name: `Animal ${id}`, categoryId: 9 });
    assert.equal(pet.id, id, 'the sample store needs a fresh database');
  }
  const states = new Map<number, 'placed' | 'approved'>([
    [SAMPLE_STORE.orderToRead, 'placed'],
    [SAMPLE_STORE.orderToApprove, 'placed'],
    [SAMPLE_STORE.orderToCancel, 'placed'],
    [SAMPLE_STORE.orderToDeliver, 'approved'],
  ]);
  const unnamedPets = Array.from({ length: Math.max(...petIds) }, (_, i) => i + 1).filter((id) => !named.has(id));
  const [spare, ...forOrders] = unnamedPets;
  for (let id = 1; id <= Math.max(...states.keys()); id++) {
    const state = states.get(id);
    const order = await call('POST', '/store/orders', { petId: state ? forOrders.shift()! : spare! });
    assert.equal(order.id, id, 'the sample store needs a fresh database');
    if (state === undefined) await call('POST', `/store/orders/${id}/cancel`);
    if (state === 'approved') await call('POST', `/store/orders/${id}/approve`);
  }
  // Webhook endpoints up to the highest id named; a name under .invalid never resolves, so nothing is sent anywhere.
  // They receive a type the seeding never makes: the dispatcher may fan out the animals' events made
  // just before them to them (it passes events over only when it runs), which would take the delivery ids.
  for (let id = 1; id <= Math.max(SAMPLE_STORE.webhookEndpointToRead, SAMPLE_STORE.webhookEndpointToRemove); id++) {
    const endpoint = await call('POST', '/webhook-endpoints', { url: 'https://hooks.docs-test.invalid/events', events: ['order.delivered'] });
    assert.equal(endpoint.id, id, 'the sample store needs a fresh database');
  }
  // The delivery retryWebhookDelivery names: the first endpoint's test message.
  const delivery = await call('POST', `/webhook-endpoints/${SAMPLE_STORE.webhookEndpointToRead}/test`);
  assert.equal(delivery.id, SAMPLE_STORE.webhookDeliveryToRetry, 'the sample store needs a fresh database');
  // API keys after the page's own (the first): the one revokeApiKey revokes.
  const current = await call('GET', '/api-keys/current');
  assert.equal(current.id, SAMPLE_STORE.apiKeyToRead, "the page's key is the store's first");
  for (let id = SAMPLE_STORE.apiKeyToRead + 1; id <= SAMPLE_STORE.apiKeyToRevoke; id++) {
    const key = await call('POST', '/api-keys', { name: `sample ${id}`, scopes: ['pets:read'] });
    assert.equal(key.id, id, 'the sample store needs a fresh database');
  }
}

describe('/docs in a real browser', () => {
  let browser: Browser;

  before(async () => {
    if (NO_CHROMIUM) return;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    await stopAllServices();
  });

  const addresses = [
    { host: '127.0.0.1', order: 'in the order the page lists them' },
    { host: 'localhost', order: 'in the reverse order' },
  ] as const;
  for (const { host, order } of addresses) {
    it(
      `/docs opened at http://${host}:PORT/docs > a key under Authorize, then Execute on every operation ${order} with the examples as shown > each answers its success status at the first click, and nothing is fetched from another origin`,
      // 26 operations clicked one by one: about 12 s each on a loaded CI machine.
      { skip: NO_CHROMIUM, timeout: 360_000 },
      async () => {
        const place = await createEmptyDatabaseUrl('sqlite');
        try {
          await runCli(['migrate'], { DATABASE_URL: place.url });
          const created = await runCli(['keys', 'create', '--name', 'docs-reader'], { DATABASE_URL: place.url });
          assert.equal(created.code, 0, created.stderr);
          const key = created.stdout.trim().split('\n').at(-1)!;
          const port = await freePort();
          const service = await spawnService({ databaseUrl: place.url, env: { PORT: String(port), PUBLIC_BASE_URL: undefined } });
          await seedSampleStore(`${service.baseUrl}/v1`, key);
          const origin = `http://${host}:${port}`;
          const operations = await operationsOf(service.baseUrl);
          assert.ok(operations.length >= 11, `only ${operations.length} operations at /docs`);
          if (order === 'in the reverse order') operations.reverse();

          const page = await browser.newPage();
          const requested: string[] = [];
          page.on('request', (request) => requested.push(request.url()));
          try {
            await page.goto(`${origin}/docs`);
            await page.getByText('Animal Store API').first().waitFor();

            await page.locator('.auth-wrapper .btn.authorize').click();
            await page.locator('.auth-container input[type="text"], .auth-container input[type="password"]').first().fill(key);
            await page.locator('.auth-btn-wrapper .btn.modal-btn.auth.authorize').click();
            await page.locator('.auth-btn-wrapper .btn-done').click();

            const answered: Record<string, string> = {};
            const expected: Record<string, string> = {};
            let listPetsBody = '';
            for (const operation of operations) {
              expected[operation.operationId] = operation.success;
              const block = page.locator(`#operations-${operation.tag}-${operation.operationId}`);
              await block.locator('.opblock-summary').first().click();
              const tryItOut = block.locator('.try-out__btn');
              if ((await tryItOut.count()) > 0 && /try it out/i.test(await tryItOut.innerText())) await tryItOut.click();
              await block.locator('.btn.execute').click();
              const status = block.locator('.live-responses-table tbody .response-col_status').first();
              // A call the browser refused (CORS) shows "Failed to fetch" instead of a status.
              answered[operation.operationId] = await status.waitFor({ timeout: 15_000 }).then(
                async () => (await status.innerText()).trim(),
                async () => `no status shown: ${(await block.locator('.responses-wrapper').innerText()).slice(0, 300)}`,
              );
              if (operation.operationId === 'listPets' && answered.listPets === '200') {
                listPetsBody = await block.locator('.live-responses-table tbody .response-col_description pre').first().innerText();
              }
              // Folded again, so the page stays short.
              await block.locator('.opblock-summary').first().click();
            }
            assert.deepEqual(answered, expected);
            assert.match(listPetsBody, /"name": "Rex"/, 'listPets with its filter examples finds the sample animal');

            const elsewhere = requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
            assert.deepEqual(elsewhere, [], 'the page fetched from another origin');
            assert.ok(
              requested.some((url) => url === `${origin}/v1/pets`),
              'the calls went to the address of the page',
            );
          } finally {
            await page.close();
            await service.stop();
          }
        } finally {
          await place.remove();
        }
      },
    );
  }
});
