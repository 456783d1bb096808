/**
 * The console's Webhooks and API keys views in a real browser (Debian's headless Chromium driven by
 * playwright-core) against a real service on each database, with a real receiver on 127.0.0.1
 * (listed in WEBHOOK_ALLOWED_HOSTS, as an operator would list a trusted host): an endpoint added
 * with its secret shown once and copied, the secret checked against the signature of the test
 * message the receiver got, its delivery seen with its outcome, filtered and retried, the secret
 * rotated, the endpoint disabled and enabled; a widening edit whose answer was lost, sent again
 * under its Idempotency-Key, shows the secret that signs; a key created in the console, used against the API,
 * revoked with "Confirm" and then refused; keys lacking webhooks:write or keys:manage see those
 * controls disabled with the scope named. Hostile descriptions, URLs and key names show as text.
 * axe-core runs on every state reached.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { verifyWebhook } from '../../client/src/index.js';
import {
  assertAccessible,
  assertFocusVisible,
  assertNoHorizontalScroll,
  type ConsoleService,
  signIn,
  startConsoleService,
  tabTo,
  waitForFocus,
} from '../helpers/console-browser.js';
import { CHROMIUM, CHROMIUM_ARGS, NO_CHROMIUM } from '../helpers/machine-tools.js';
import { stopAllServices } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { withDeadline } from '../helpers/wait-for.js';

const HOSTILE_TEXT = '<img src=x onerror="window.__xss=1">';
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{43}$/;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 answering 200 to every POST, and waiting for the nth one. */
async function startReceiver(): Promise<{ origin: string; received: Received[]; nth(count: number): Promise<Received>; close(): Promise<void> }> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: (message: Received) => void }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.end();
      for (const waiter of waiters.filter((candidate) => candidate.count <= received.length)) waiter.resolve(received[waiter.count - 1]!);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    nth: (count) =>
      withDeadline(
        received.length >= count ? Promise.resolve(received[count - 1]!) : new Promise<Received>((resolve) => waiters.push({ count, resolve })),
        30_000,
        `the receiver's message ${count}`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Presses the edit form's "Save", waits for "Saved endpoint N.", and answers the new signing secret shown once. */
async function saveWideningEdit(page: Page, form: Locator, id: number): Promise<string> {
  await form.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Saved endpoint ${id}.` })
    .waitFor();
  return page
    .getByRole('region', { name: `New signing secret of endpoint ${id}` })
    .getByLabel('Signing secret')
    .inputValue();
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the console's Webhooks and API keys views in a browser on ${dialect}`, {}, () => {
    let browser: Browser;
    let context: BrowserContext;
    let store: ConsoleService;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    /** Every page's dialogs (an alert would be a script run by a name or URL) and script errors. */
    const surprises: string[] = [];

    before(async () => {
      if (NO_CHROMIUM) return;
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
      receiver = await startReceiver();
      store = await startConsoleService(dialect, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
      context = await browser.newContext();
      // "Copy" writes to the clipboard, which the test reads back.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(store.consoleUrl).origin });
    });
    after(async () => {
      await context?.close();
      await browser?.close();
      await store?.stop();
      await receiver?.close();
      await stopAllServices();
    });

    async function signedIn(path: string, key = store.key): Promise<Page> {
      const page = await context.newPage();
      page.on('dialog', (dialog) => {
        surprises.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => surprises.push(`page error: ${error.message}`));
      await page.goto(store.consoleUrl + path);
      await signIn(page, key);
      return page;
    }

    /** What "Copy" put on the clipboard. */
    const clipboard = (page: Page) => page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>);

    it(
      'webhooks > an endpoint added with its secret shown once and copied; "Send test event" reaches the receiver, signed with that secret, and its delivery shows with its outcome, filtered and retried',
      { skip: NO_CHROMIUM, timeout: 180_000 },
      async () => {
        const page = await signedIn('webhooks');
        await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
        await assertAccessible(page, 'the webhooks page');

        await page.getByRole('button', { name: 'Add endpoint' }).click();
        const form = page.getByRole('region', { name: 'Add a webhook endpoint' });
        await form.getByLabel('URL').fill('https://localhost/hooks');
        await form.getByLabel('pet.* (every pet event)').check();
        await form.getByRole('button', { name: 'Save' }).click();
        // The API's refusal of a loopback name is the URL field's own message.
        await form.getByText(/must not point at a non-public address/).waitFor();
        await assertAccessible(page, 'the add form with a refused URL');

        const hostileUrl = `${receiver.origin}/hooks/'"><img src=x onerror=window.__xss=1>?${dialect}`;
        await form.getByLabel('URL').fill(hostileUrl);
        await form.getByLabel('Description (optional)').fill(HOSTILE_TEXT);
        await form.getByRole('button', { name: 'Save' }).click();
        const added = page.getByRole('region', { name: /^Added endpoint \d+$/ });
        const secret = await added.getByLabel('Signing secret').inputValue();
        assert.match(secret, SECRET_PATTERN);
        await assertAccessible(page, 'the secret of a new endpoint, shown once');
        await added.getByRole('button', { name: 'Copy' }).click();
        await added.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
        assert.equal(await clipboard(page), secret, '"Copy" copies the secret');

        const listed = await store.api('GET', '/webhook-endpoints?limit=100');
        const endpoint = listed.body.find((candidate: { description?: string }) => candidate.description === HOSTILE_TEXT);
        assert.ok(endpoint, 'the endpoint exists in the API, its description as typed');
        assert.equal(endpoint.status, 'enabled');
        assert.deepEqual(endpoint.events, ['pet.*']);
        const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: endpoint.url, exact: true }) });
        await row.getByRole('cell', { name: HOSTILE_TEXT, exact: true }).waitFor();
        await row.getByRole('cell', { name: 'enabled', exact: true }).waitFor();
        assert.equal(await page.locator('main img').count(), 0, 'the URL and the description made no element');

        // The endpoint's own page: the secret is not shown again.
        await row.getByRole('link', { name: endpoint.url, exact: true }).click();
        await page.getByRole('heading', { name: `Webhook endpoint ${endpoint.id}`, level: 1 }).waitFor();
        await page.getByText(endpoint.url, { exact: true }).waitFor();
        assert.equal(await page.getByLabel('Signing secret').count(), 0, 'the secret is shown once only');
        await page.getByText('No delivery matches.').waitFor();
        await assertAccessible(page, "an endpoint's page without deliveries");

        await page.getByRole('button', { name: 'Send test event' }).click();
        const test = await receiver.nth(1);
        const payload = await verifyWebhook(secret, test.headers as Record<string, string>, test.body);
        assert.deepEqual(
          { type: payload.type, endpointId: (payload as { data: { endpointId: number } }).data.endpointId },
          {
            type: 'webhook.test',
            endpointId: endpoint.id,
          },
        );
        const deliveries = page.getByRole('table', { name: /^Deliveries/ });
        const delivery = deliveries.getByRole('row').filter({ hasText: 'webhook.test' });
        // Outcome, attempts and status code: the list reads itself again until the attempt is over.
        await delivery.getByRole('cell', { name: 'succeeded', exact: true }).waitFor();
        await delivery.getByRole('cell', { name: '200', exact: true }).waitFor();
        assert.match(await delivery.getByRole('cell').nth(5).innerText(), /^\d+ ms$/, 'the duration');
        await assertAccessible(page, 'a succeeded test delivery');

        await page.getByLabel('Outcome').selectOption('failed');
        await page.getByText('No delivery matches.').waitFor();
        assert.equal(new URL(page.url()).search, '?outcome=failed', 'the filter is in the address');
        await page.reload();
        await page.getByRole('heading', { name: `Webhook endpoint ${endpoint.id}`, level: 1 }).waitFor();
        await page.getByText('No delivery matches.').waitFor();
        await page.getByLabel('Outcome').selectOption('succeeded');
        await delivery.getByRole('cell', { name: 'succeeded', exact: true }).waitFor();

        await delivery.getByRole('button', { name: 'Retry' }).click();
        const again = await receiver.nth(2);
        assert.equal(again.headers['webhook-id'], test.headers['webhook-id'], 'a retry sends the same message');
        await delivery.getByRole('cell').nth(3).filter({ hasText: /^2$/ }).waitFor();
        await assertAccessible(page, 'a retried delivery');
        assert.deepEqual(surprises, [], 'no script ran from the URL or the description');
        await page.close();
      },
    );

    it(
      'webhooks > "Rotate secret" shows the new secret once, which signs the next test; "Disable" stops tests and "Enable" starts them again',
      { skip: NO_CHROMIUM, timeout: 180_000 },
      async () => {
        const created = await store.api('POST', '/webhook-endpoints', { url: `${receiver.origin}/rotated/${dialect}`, events: ['order.*'] });
        assert.equal(created.status, 201);
        const page = await signedIn(`webhooks/${created.body.id}`);
        await page.getByText(created.body.url, { exact: true }).waitFor();

        await page.getByRole('button', { name: 'Rotate secret' }).click();
        const rotated = page.getByRole('region', { name: 'New signing secret' });
        const secret = await rotated.getByLabel('Signing secret').inputValue();
        assert.match(secret, SECRET_PATTERN);
        assert.notEqual(secret, created.body.secret);
        await assertAccessible(page, 'a rotated secret, shown once');
        await rotated.getByRole('button', { name: 'Copy' }).click();
        assert.equal(await clipboard(page), secret);

        const before = receiver.received.length;
        await page.getByRole('button', { name: 'Send test event' }).click();
        const test = await receiver.nth(before + 1);
        await page.getByRole('status').filter({ hasText: 'Test message sent' }).waitFor();
        assert.equal(
          await page.evaluate(() => (globalThis as any).document.activeElement?.textContent),
          'Send test event',
          'the focus stays where the person is: the shown secret does not take it again',
        );
        assert.equal(test.path, `/rotated/${dialect}`);
        await verifyWebhook(secret, test.headers as Record<string, string>, test.body);
        await page
          .getByRole('table', { name: /^Deliveries/ })
          .getByRole('cell', { name: 'succeeded', exact: true })
          .waitFor();

        await page.getByRole('button', { name: 'Disable' }).click();
        await page.getByRole('status').filter({ hasText: 'Disabled' }).waitFor();
        assert.equal((await store.api('GET', `/webhook-endpoints/${created.body.id}`)).body.status, 'disabled');
        assert.equal(await page.getByRole('button', { name: 'Send test event' }).isDisabled(), true, 'no test to a disabled endpoint');
        assert.equal(await page.getByRole('button', { name: 'Retry' }).isDisabled(), true, 'no retry to a disabled endpoint');
        await assertAccessible(page, 'a disabled endpoint');

        await page.getByRole('button', { name: 'Enable' }).click();
        await page.getByRole('status').filter({ hasText: 'Enabled' }).waitFor();
        assert.equal((await store.api('GET', `/webhook-endpoints/${created.body.id}`)).body.status, 'enabled');
        await page.getByRole('button', { name: 'Send test event' }).click();
        await receiver.nth(before + 2);
        await page.reload();
        await page.getByText(created.body.url, { exact: true }).waitFor();
        assert.equal(await page.getByLabel('Signing secret').count(), 0, 'a reload shows no secret');
        await page.close();
      },
    );

    it(
      'webhooks > "Edit" sends the URL and event types changed as a merge patch: a refused URL shows the API\'s message beside the URL field; saved, the list and GET show the change, and a widened endpoint\'s new secret is shown once',
      { skip: NO_CHROMIUM, timeout: 180_000 },
      async () => {
        const created = await store.api('POST', '/webhook-endpoints', { url: `${receiver.origin}/before/${dialect}`, events: ['pet.*'], description: 'Kept' });
        assert.equal(created.status, 201);
        const id: number = created.body.id;
        const page = await signedIn('webhooks');
        const patches: (string | undefined)[] = [];
        page.on('request', (request) => {
          if (request.method() === 'PATCH') patches.push(request.headers()['content-type']);
        });
        const rowOf = (url: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: url, exact: true }) });
        await rowOf(created.body.url).getByRole('button', { name: 'Edit' }).click();
        const form = page.getByRole('region', { name: `Edit endpoint ${id}` });
        assert.equal(await form.getByLabel('URL').inputValue(), created.body.url, 'the form starts from the endpoint as it is');
        assert.equal(await form.getByLabel('pet.* (every pet event)').isChecked(), true);

        await form.getByLabel('URL').fill('https://localhost/edited');
        await form.getByRole('button', { name: 'Save' }).click();
        await form.getByText(/must not point at a non-public address/).waitFor();
        assert.match(
          await accessibleDescription(page, form.getByLabel('URL')),
          /must not point at a non-public address/,
          "the API's message is the URL field's own",
        );
        await assertAccessible(page, 'the edit form with a refused URL');
        assert.equal((await store.api('GET', `/webhook-endpoints/${id}`)).body.url, created.body.url, 'a refused change changes nothing');

        const url = `${receiver.origin}/after/${dialect}`;
        await form.getByLabel('URL').fill(url);
        await form.getByLabel('pet.* (every pet event)').uncheck();
        await form.getByLabel('pet.created', { exact: true }).check();
        await form.getByLabel('order.placed', { exact: true }).check();
        // order.placed is a type it did not receive: the API replaced the secret, shown this once.
        const secret = await saveWideningEdit(page, form, id);
        assert.deepEqual(patches, ['application/merge-patch+json', 'application/merge-patch+json'], 'each change is sent as a merge patch');
        assert.match(secret, SECRET_PATTERN);
        await rowOf(url).getByRole('cell', { name: 'pet.created, order.placed', exact: true }).waitFor();
        assert.equal(await rowOf(created.body.url).count(), 0, 'the list no longer shows the old URL');
        await assertAccessible(page, 'the webhooks page after an edit, with the new secret');
        const read = await store.api('GET', `/webhook-endpoints/${id}`);
        assert.deepEqual(
          { url: read.body.url, events: read.body.events, description: read.body.description },
          { url, events: ['pet.created', 'order.placed'], description: 'Kept' },
        );
        await page.close();
      },
    );

    it(
      "webhooks > a widening edit whose answer is lost on the way > sent again with the same Idempotency-Key, and the secret the replay shows signs the endpoint's messages",
      { skip: NO_CHROMIUM, timeout: 180_000 },
      async () => {
        const created = await store.api('POST', '/webhook-endpoints', { url: `${receiver.origin}/lost-answer/${dialect}`, events: ['pet.created'] });
        assert.equal(created.status, 201);
        const id: number = created.body.id;
        const page = await signedIn('webhooks');
        const keys: (string | undefined)[] = [];
        await page.route(`**/v1/webhook-endpoints/${id}`, async (route) => {
          if (route.request().method() !== 'PATCH') return route.continue();
          keys.push(route.request().headers()['idempotency-key']);
          if (keys.length > 1) return route.continue();
          // The first edit reaches the service, which makes it; its answer never reaches the page.
          await route.fetch();
          return route.abort('connectionreset');
        });
        const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: created.body.url, exact: true }) });
        await row.getByRole('button', { name: 'Edit' }).click();
        const form = page.getByRole('region', { name: `Edit endpoint ${id}` });
        await form.getByLabel('order.placed', { exact: true }).check();
        // The console's client sends a PATCH again after a dropped connection, as it does any request with an Idempotency-Key.
        const secret = await saveWideningEdit(page, form, id);
        assert.equal(keys.length, 2);
        assert.equal(keys[1], keys[0], 'the retry is the same request to the service: the same Idempotency-Key');
        assert.deepEqual((await store.api('GET', `/webhook-endpoints/${id}`)).body.events, ['pet.created', 'order.placed'], 'made once');
        const before = receiver.received.length;
        assert.equal((await store.api('POST', `/webhook-endpoints/${id}/test`)).status, 202);
        const test = await receiver.nth(before + 1);
        assert.equal(test.path, `/lost-answer/${dialect}`);
        await verifyWebhook(secret, test.headers as Record<string, string>, test.body);
        await page.close();
      },
    );

    it('webhooks > "Remove" asks, "Confirm" removes; the API no longer has the endpoint', { skip: NO_CHROMIUM, timeout: 120_000 }, async () => {
      const created = await store.api('POST', '/webhook-endpoints', { url: `${receiver.origin}/leaving/${dialect}`, events: ['order.*'] });
      assert.equal(created.status, 201);
      const page = await signedIn('webhooks');
      const link = page.getByRole('link', { name: created.body.url, exact: true });
      const row = page.getByRole('row').filter({ has: link });
      await row.getByRole('button', { name: 'Remove' }).click();
      await row.getByRole('group', { name: `Remove endpoint ${created.body.id}?` }).waitFor();
      assert.equal((await store.api('GET', `/webhook-endpoints/${created.body.id}`)).status, 200, 'asking removes nothing');
      await assertAccessible(page, 'an endpoint removal waiting for its confirmation');
      await row.getByRole('button', { name: 'Confirm' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Removed endpoint ${created.body.id}` })
        .waitFor();
      await link.waitFor({ state: 'detached' });
      const gone = await store.api('GET', `/webhook-endpoints/${created.body.id}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 'webhook_endpoint_not_found');
      await page.close();
    });

    it(
      'webhooks > a key with webhooks:read only > sees the endpoints, and "Add endpoint", "Edit", "Remove", "Rotate secret", "Send test event" disabled with webhooks:write named',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const created = await store.api('POST', '/webhook-endpoints', { url: `${receiver.origin}/read-only/${dialect}`, events: ['pet.created'] });
        const reader = await store.keyWithScopes(`webhooks reader ${dialect}`, ['webhooks:read']);
        const page = await signedIn('webhooks', reader);
        const add = page.getByRole('button', { name: 'Add endpoint' });
        await page.getByRole('link', { name: created.body.url, exact: true }).waitFor();
        assert.equal(await add.isDisabled(), true);
        assert.match(await accessibleDescription(page, add), /webhooks:write/);
        const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: created.body.url, exact: true }) });
        for (const name of ['Edit', 'Remove']) {
          const button = row.getByRole('button', { name });
          assert.equal(await button.isDisabled(), true, `${name} is disabled`);
          assert.match(await accessibleDescription(page, button), /webhooks:write/, `${name} names the scope`);
        }
        await assertAccessible(page, 'the webhooks page of a read-only key');
        await page.getByRole('link', { name: created.body.url, exact: true }).click();
        for (const name of ['Disable', 'Rotate secret', 'Send test event']) {
          const button = page.getByRole('button', { name });
          assert.equal(await button.isDisabled(), true, `${name} is disabled`);
          assert.match(await accessibleDescription(page, button), /webhooks:write/, `${name} names the scope`);
        }
        await assertAccessible(page, "an endpoint's page for a read-only key");
        await page.close();
      },
    );

    it(
      'API keys > a key created in the console (shown once, copied) works against the API within its scopes; revoked with "Confirm", it answers 401',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const page = await signedIn('api-keys');
        await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
        await page.getByRole('cell', { name: "console-test (this console's key)", exact: true }).waitFor();
        await assertAccessible(page, 'the API keys page');

        await page.getByRole('button', { name: 'Create key' }).click();
        const form = page.getByRole('region', { name: 'Create an API key' });
        await form.getByLabel('Name').fill(`${HOSTILE_TEXT} ${dialect}`);
        await form.getByRole('button', { name: 'Create' }).click();
        const scopes = form.getByRole('group', { name: 'Scopes' });
        await form.locator('fieldset[aria-describedby]').waitFor();
        assert.match(await accessibleDescription(page, scopes), /1/, "the API's message about body.scopes (at least 1) is the group's description");
        await assertAccessible(page, 'the create form without scopes');
        await form.getByLabel('pets:read').check();
        await form.getByRole('button', { name: 'Create' }).click();
        const created = page.getByRole('region', { name: `Created key ${HOSTILE_TEXT} ${dialect}` });
        const key = await created.getByLabel('API key').inputValue();
        assert.match(key, KEY_PATTERN);
        await created.getByRole('button', { name: 'Copy' }).click();
        assert.equal(await clipboard(page), key);
        await assertAccessible(page, 'a new key, shown once');
        assert.equal(await page.locator('main img').count(), 0, 'the name made no element');

        const asNewKey = (method: string, path: string, body?: unknown) =>
          fetch(`${store.service.baseUrl}/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        assert.equal((await asNewKey('GET', '/pets')).status, 200, 'the key works');
        assert.equal((await asNewKey('POST', '/pets', { name: 'Not mine', categoryId: 1 })).status, 403, 'within its scopes only');

        const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: `${HOSTILE_TEXT} ${dialect}`, exact: true }) });
        await row.getByRole('cell', { name: key.slice(0, 12), exact: true }).waitFor();
        await row.getByRole('cell', { name: 'pets:read', exact: true }).waitFor();
        await row.getByRole('button', { name: 'Revoke' }).click();
        await row.getByRole('button', { name: 'Confirm' }).waitFor();
        assert.equal((await asNewKey('GET', '/pets')).status, 200, 'asking revokes nothing');
        await assertAccessible(page, 'a revocation waiting for its confirmation');
        await row.getByRole('button', { name: 'Confirm' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `Revoked ${HOSTILE_TEXT} ${dialect}` })
          .waitFor();
        await row.getByText('Revoked').waitFor();
        assert.equal((await asNewKey('GET', '/pets')).status, 401, 'the revoked key is refused');
        await assertAccessible(page, 'the API keys page after a revocation');
        await page.reload();
        await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
        assert.equal(await page.getByLabel('API key', { exact: true }).count(), 0, 'a reload shows no key');
        assert.deepEqual(surprises, [], 'no script ran from the name');
        await page.close();
      },
    );

    it(
      "API keys > revoking the console's own key > signs the tab out at once, saying the key was revoked, before any call is refused",
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const name = `self-revoking ${dialect}`;
        const own = await store.keyWithScopes(name, ['keys:manage']);
        const page = await signedIn('api-keys', own);
        const refused: string[] = [];
        page.on('response', (response) => {
          if (response.status() === 401) refused.push(response.url());
        });
        const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: `${name} (this console's key)`, exact: true }) });
        await row.getByRole('button', { name: 'Revoke' }).click();
        await row.getByText('It stops working at once, and this console signs out.').waitFor();
        await row.getByRole('button', { name: 'Confirm' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `You revoked ${name} (${own.slice(0, 12)}), the key this console was signed in with.` })
          .waitFor();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        assert.equal(await page.getByRole('navigation', { name: 'Console' }).count(), 0, 'signed out');
        assert.deepEqual(refused, [], 'no call was refused first: the sign-out came with the revocation');
        assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.length), 0, 'the key is forgotten');
        const after = await fetch(`${store.service.baseUrl}/v1/api-keys/current`, { headers: { authorization: `Bearer ${own}` } });
        assert.equal(after.status, 401, 'the key is revoked');
        await assertAccessible(page, 'the sign-in page after revoking its own key');
        await page.close();
      },
    );

    it(
      'API keys > a key without keys:manage > sees "Create key" disabled with keys:manage named, and no listing',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const limited = await store.keyWithScopes(`no keys:manage ${dialect}`, ['pets:read']);
        const page = await signedIn('api-keys', limited);
        const create = page.getByRole('button', { name: 'Create key' });
        await create.waitFor();
        assert.equal(await create.isDisabled(), true);
        assert.match(await accessibleDescription(page, create), /keys:manage/);
        await page.getByText('This key lacks the keys:manage scope. The keys are not shown.').waitFor();
        assert.equal(await page.getByRole('table').count(), 0);
        await assertAccessible(page, 'the API keys page of a key without keys:manage');
        await page.close();
      },
    );

    it(
      'keyboard only > on Webhooks, add (secret copied), edit and remove an endpoint; on its page disable, enable, rotate, test, filter and retry; the focus always shows',
      { skip: NO_CHROMIUM, timeout: 240_000 },
      async () => {
        const page = await signedIn('webhooks');
        await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
        const press = async (target: Locator, key = 'Enter') => {
          await tabTo(page, target);
          await page.keyboard.press(key);
        };
        await press(page.getByRole('button', { name: 'Add endpoint' }));
        const form = page.getByRole('region', { name: 'Add a webhook endpoint' });
        await tabTo(page, form.getByLabel('URL'));
        const url = `${receiver.origin}/keyboard/${dialect}`;
        await page.keyboard.type(url);
        await press(form.getByLabel('pet.* (every pet event)'), 'Space');
        await press(form.getByRole('button', { name: 'Save' }));
        const added = page.getByRole('region', { name: /^Added endpoint \d+$/ });
        await press(added.getByRole('button', { name: 'Copy' }));
        await added.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
        await assertAccessible(page, 'a secret shown once, reached by keyboard');
        await press(added.getByRole('button', { name: 'Done' }));

        const link = page.getByRole('link', { name: url, exact: true });
        const row = page.getByRole('row').filter({ has: link });
        await press(row.getByRole('button', { name: 'Edit' }));
        await tabTo(page, page.getByLabel('Description (optional)'));
        await page.keyboard.type('By keyboard');
        await press(page.getByRole('button', { name: 'Save' }));
        await page
          .getByRole('status')
          .filter({ hasText: /^Saved endpoint \d+\.$/ })
          .waitFor();
        const id = Number(/(\d+)/.exec(await page.getByRole('status').filter({ hasText: 'Saved endpoint' }).innerText())?.[1]);
        assert.equal((await store.api('GET', `/webhook-endpoints/${id}`)).body.description, 'By keyboard');

        await press(link);
        await page.getByRole('heading', { name: `Webhook endpoint ${id}`, level: 1 }).waitFor();
        await press(page.getByRole('button', { name: 'Disable' }));
        await page.getByRole('status').filter({ hasText: 'Disabled' }).waitFor();
        await press(page.getByRole('button', { name: 'Enable' }));
        await page.getByRole('status').filter({ hasText: 'Enabled' }).waitFor();
        await press(page.getByRole('button', { name: 'Rotate secret' }));
        await page.getByRole('region', { name: 'New signing secret' }).waitFor();
        const sent = receiver.received.length;
        await press(page.getByRole('button', { name: 'Send test event' }));
        await receiver.nth(sent + 1);
        const delivery = page.getByRole('row').filter({ hasText: 'webhook.test' });
        await delivery.getByRole('cell', { name: 'succeeded', exact: true }).waitFor();
        // A closed select takes the arrow keys: each one chooses the next outcome.
        await tabTo(page, page.getByLabel('Outcome'));
        await page.keyboard.press('ArrowDown');
        await page.waitForURL(/\?outcome=pending$/);
        await page.keyboard.press('ArrowDown');
        await page.waitForURL(/\?outcome=succeeded$/);
        await press(delivery.getByRole('button', { name: 'Retry' }));
        await receiver.nth(sent + 2);
        await page.getByRole('status').filter({ hasText: 'is being sent again' }).waitFor();
        await press(page.getByRole('button', { name: 'Refresh' }));
        await assertAccessible(page, "an endpoint's page used by keyboard");

        await press(page.getByRole('link', { name: 'All webhook endpoints' }));
        await press(row.getByRole('button', { name: 'Remove' }));
        const confirm = row.getByRole('button', { name: 'Confirm' });
        await waitForFocus(confirm, 'asked, the focus is on "Confirm"');
        await assertFocusVisible(page);
        await page.keyboard.press('Enter');
        await link.waitFor({ state: 'detached' });
        assert.equal((await store.api('GET', `/webhook-endpoints/${id}`)).status, 404);
        await page.close();
      },
    );

    it('keyboard only > on API keys, create a key (copied) and revoke it; the focus always shows', { skip: NO_CHROMIUM, timeout: 120_000 }, async () => {
      const page = await signedIn('api-keys');
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      const press = async (target: Locator, key = 'Enter') => {
        await tabTo(page, target);
        await page.keyboard.press(key);
      };
      const name = `keyboard ${dialect}`;
      await press(page.getByRole('button', { name: 'Create key' }));
      const form = page.getByRole('region', { name: 'Create an API key' });
      await tabTo(page, form.getByLabel('Name'));
      await page.keyboard.type(name);
      await press(form.getByLabel('orders:read'), 'Space');
      await press(form.getByRole('button', { name: 'Create' }));
      const created = page.getByRole('region', { name: `Created key ${name}` });
      await press(created.getByRole('button', { name: 'Copy' }));
      await created.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
      await press(created.getByRole('button', { name: 'Done' }));

      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
      await press(row.getByRole('button', { name: 'Revoke' }));
      await waitForFocus(row.getByRole('button', { name: 'Confirm' }), 'asked, the focus is on "Confirm"');
      await assertFocusVisible(page);
      await assertAccessible(page, 'a revocation asked by keyboard');
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: `Revoked ${name}` })
        .waitFor();
      const listed = await store.api('GET', '/api-keys?limit=100');
      const revoked = listed.body.find((key: { name: string }) => key.name === name);
      assert.deepEqual(revoked.scopes, ['orders:read']);
      assert.ok(revoked.revokedAt, 'the key is revoked');
      await page.close();
    });

    it('Webhooks and API keys > 375 px wide, lists and forms open, without horizontal scrolling', { skip: NO_CHROMIUM, timeout: 120_000 }, async () => {
      const created = await store.api('POST', '/webhook-endpoints', {
        url: `${receiver.origin}/a-rather-long-path/to-wrap-at-375-pixels/${'x'.repeat(60)}/${dialect}`,
        events: ['pet.*', 'order.*'],
        description: 'A rather long description of an endpoint, to wrap at 375 pixels',
      });
      assert.equal(created.status, 201);
      const page = await context.newPage();
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${store.consoleUrl}webhooks`);
      await signIn(page, store.key);
      const states: [string, () => Promise<void>][] = [
        ['webhooks', () => page.getByRole('link', { name: created.body.url, exact: true }).waitFor()],
        ['the add form', () => page.getByRole('button', { name: 'Add endpoint' }).click()],
        [
          `webhooks/${created.body.id}`,
          () => page.goto(`${store.consoleUrl}webhooks/${created.body.id}`).then(() => page.getByText('No delivery matches.').waitFor()),
        ],
        [
          'api-keys',
          () =>
            page.goto(`${store.consoleUrl}api-keys`).then(() => page.getByRole('cell', { name: "console-test (this console's key)", exact: true }).waitFor()),
        ],
        ['the create form', () => page.getByRole('button', { name: 'Create key' }).click()],
      ];
      for (const [state, reach] of states) {
        await reach();
        await assertNoHorizontalScroll(page, state);
        await assertAccessible(page, `${state} at 375 px`);
      }
      await page.close();
    });
  });
}

/** The text of the elements `aria-describedby` names: what a screen reader says after the control's name. */
async function accessibleDescription(page: Page, control: ReturnType<Page['getByRole']>): Promise<string> {
  const ids = (await control.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).innerText()),
  );
  return texts.join(' ');
}
