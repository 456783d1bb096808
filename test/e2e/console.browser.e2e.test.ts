/**
 * The console in a real browser (Debian's headless Chromium driven by playwright-core) against a
 * real service on each database: signing in (a wrong key, then the right one) and where the key is
 * kept; adding an animal (the API's message next to its field, a hostile name shown as text) and
 * finding it through the API; an edit that meets someone else's change (412, "Reload"); removing
 * with "Confirm"; an animal's page with its orders, opened by its address. axe-core runs on every
 * state reached; the page's Content-Security-Policy is checked as the browser received it. Without
 * /usr/bin/chromium the tests are reported as skipped, without TEST_DATABASE_URL the PostgreSQL suite.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CONSOLE_CSP } from '../../src/console/console-headers.js';
import { assertAccessible, assertNoHorizontalScroll, type ConsoleService, signIn, startConsoleService, tabTo } from '../helpers/console-browser.js';
import { CHROMIUM, CHROMIUM_ARGS, NO_CHROMIUM } from '../helpers/machine-tools.js';
import { stopAllServices } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const HOSTILE_NAME = '<img src=x onerror="window.__xss=1">';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the console in a browser on ${dialect}`, {}, () => {
    let browser: Browser;
    let store: ConsoleService;
    /** Every page's dialogs (an alert would be a script run by an animal's name) and script errors. */
    const surprises: string[] = [];
    /** The first-load sizes, printed at the end (docs/performance.md quotes them). */
    const measured: string[] = [];

    before(async () => {
      if (NO_CHROMIUM) return;
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
      store = await startConsoleService(dialect);
    });
    after(async () => {
      if (measured.length > 0) console.log(`console first load, JavaScript and CSS after gzip, on ${dialect}: ${measured.join(', ')}`);
      await browser?.close();
      await store?.stop();
      await stopAllServices();
    });

    async function openPage(path = ''): Promise<Page> {
      const page = await browser.newPage();
      page.on('dialog', (dialog) => {
        surprises.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => surprises.push(`page error: ${error.message}`));
      await page.goto(store.consoleUrl + path);
      return page;
    }

    async function signedIn(path = ''): Promise<Page> {
      const page = await openPage(path);
      await signIn(page, store.key);
      return page;
    }

    /** The row of the animals table naming `name`. */
    const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

    it(
      'sign in > a wrong key is refused in words, the right one opens the console; the key is kept in this tab only, survives a reload, and "Sign out" forgets it',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const page = await browser.newPage();
        const answer = await page.goto(store.consoleUrl);
        assert.equal(answer?.headers()['content-security-policy'], CONSOLE_CSP, 'the page carries the CSP');
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await assertAccessible(page, 'the sign-in page');
        assert.equal(await page.getByLabel('Remember on this device').isChecked(), false, '"Remember on this device" is off by default');

        await page.getByLabel('API key').fill('ask_this-is-not-a-key-of-this-store');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').filter({ hasText: 'That API key was not accepted' }).waitFor();
        await assertAccessible(page, 'the sign-in page with a wrong key');
        assert.equal(await page.getByRole('navigation', { name: 'Console' }).count(), 0);

        await signIn(page, store.key);
        for (const name of ['Animals', 'Orders', 'Activity', 'Webhooks', 'API keys']) {
          await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).waitFor();
        }
        await page.getByRole('heading', { name: 'Animals', level: 1 }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/console/animals');
        await assertAccessible(page, 'the animals page');

        const stored = () =>
          page.evaluate(() => {
            const { sessionStorage, localStorage, document } = globalThis as any;
            return { session: Object.values({ ...sessionStorage }), local: Object.values({ ...localStorage }), cookie: document.cookie };
          });
        assert.deepEqual(await stored(), { session: [store.key], local: [], cookie: '' }, 'in sessionStorage only');

        await page.reload();
        await page.getByRole('heading', { name: 'Animals', level: 1 }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/console/animals', 'a reload stays on the view, signed in');

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        assert.deepEqual(await stored(), { session: [], local: [], cookie: '' }, '"Sign out" forgets the key');

        await page.getByLabel('Remember on this device').check();
        await signIn(page, store.key);
        assert.deepEqual(await stored(), { session: [], local: [store.key], cookie: '' }, 'remembered on this device: localStorage');
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        assert.deepEqual(await stored(), { session: [], local: [], cookie: '' }, '"Sign out" forgets a remembered key too');
        await page.close();
      },
    );

    it(
      'add an animal > the API\'s message shows next to "Name"; then saved, listed, found through the API, a hostile name shown as text',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const page = await signedIn();
        await page.getByRole('button', { name: 'Add animal' }).click();
        const form = page.getByRole('region', { name: 'Add animal' });
        const name = form.getByLabel('Name');
        await name.fill('   ');
        await form.getByLabel('Category').fill('3');
        await form.getByRole('button', { name: 'Save' }).click();
        // The API's message about body.name is the field's accessible description.
        await page.waitForFunction(() => {
          const { document } = globalThis as any;
          const field = [...document.querySelectorAll('label')].find((label: any) => label.textContent === 'Name')?.control;
          const described = field?.getAttribute('aria-describedby');
          return described ? /name/i.test(document.getElementById(described)?.textContent ?? '') : false;
        });
        await assertAccessible(page, 'the add form with a refused name');

        await name.fill(HOSTILE_NAME);
        await form.getByLabel('Status').selectOption('pending');
        await form.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('status').filter({ hasText: 'Added' }).waitFor();
        const row = rowOf(page, HOSTILE_NAME);
        await row.waitFor();
        assert.equal(await page.locator('main img').count(), 0, 'the name made no element');
        const id = Number(await row.getByRole('cell').first().innerText());
        const found = await store.api('GET', `/pets?id=${id}`);
        assert.deepEqual(found.body, [{ id, name: HOSTILE_NAME, categoryId: 3, status: 'pending' }]);
        await assertAccessible(page, 'the animals page after an add');

        await page.getByRole('link', { name: HOSTILE_NAME, exact: true }).click();
        await page.getByRole('heading', { name: HOSTILE_NAME, level: 1 }).waitFor();
        assert.equal(await page.locator('main img').count(), 0);
        assert.deepEqual(surprises, [], 'no script ran from the name');
        await page.close();
      },
    );

    it(
      'a key without pets:write > signs in; "Add animal" and "Edit" are disabled, each naming the scope it lacks',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        assert.equal((await store.api('POST', '/pets', { name: `Read only ${dialect}`, categoryId: 1 })).status, 201);
        const reader = await store.keyWithScopes(`reader-${dialect}`, ['pets:read']);
        const page = await openPage();
        await signIn(page, reader);
        const add = page.getByRole('button', { name: 'Add animal' });
        await add.waitFor();
        assert.equal(await add.isDisabled(), true);
        const note = (await add.getAttribute('aria-describedby')) ?? assert.fail('"Add animal" names no reason');
        assert.equal(await page.locator(`[id="${note}"]`).textContent(), 'This key lacks the pets:write scope.');
        const edit = rowOf(page, `Read only ${dialect}`).getByRole('button', { name: 'Edit' });
        assert.equal(await edit.isDisabled(), true);
        await assertAccessible(page, 'controls disabled for want of a scope');
        await page.close();
      },
    );

    it(
      'edit > someone else changes the animal between load and save > the page says so, "Reload" shows their change, and the next save applies',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const created = await store.api('POST', '/pets', { name: `Conflicted ${dialect}`, categoryId: 1 });
        assert.equal(created.status, 201);
        const page = await signedIn(`animals?name=${encodeURIComponent(`Conflicted ${dialect}`)}`);
        await rowOf(page, `Conflicted ${dialect}`).getByRole('button', { name: 'Edit' }).click();
        const name = page.getByLabel('Name', { exact: true });
        await page.waitForFunction(
          (expected) => ((globalThis as any).document.activeElement?.textContent ?? '').includes(expected),
          `Edit animal ${created.body.id}`,
        );
        assert.equal(await name.inputValue(), `Conflicted ${dialect}`);

        const meanwhile = await store.api('PATCH', `/pets/${created.body.id}`, { name: `Changed elsewhere ${dialect}` });
        assert.equal(meanwhile.status, 200);

        await name.fill(`Mine ${dialect}`);
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('alert').filter({ hasText: 'Someone else changed this animal' }).waitFor();
        await assertAccessible(page, 'the edit form after a conflict');
        const unchanged = await store.api('GET', `/pets?id=${created.body.id}`);
        assert.equal(unchanged.body[0].name, `Changed elsewhere ${dialect}`, 'nothing was overwritten');

        await page.getByRole('button', { name: 'Reload' }).click();
        await page.waitForFunction(
          (expected) => (globalThis as any).document.querySelector('.panel input')?.value === expected,
          `Changed elsewhere ${dialect}`,
        );
        await page.getByLabel('Category').fill('7');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
        const saved = await store.api('GET', `/pets?id=${created.body.id}`);
        assert.deepEqual(saved.body[0], { id: created.body.id, name: `Changed elsewhere ${dialect}`, categoryId: 7, status: 'available' });
        await page.close();
      },
    );

    it('remove > "Remove" asks, "Confirm" removes; the API no longer has the animal', { skip: NO_CHROMIUM, timeout: 120_000 }, async () => {
      const created = await store.api('POST', '/pets', { name: `Leaving ${dialect}`, categoryId: 2 });
      const page = await signedIn(`animals?name=${encodeURIComponent(`Leaving ${dialect}`)}`);
      const row = rowOf(page, `Leaving ${dialect}`);
      await row.getByRole('button', { name: 'Remove' }).click();
      await row.getByRole('button', { name: 'Confirm' }).waitFor();
      assert.equal((await store.api('GET', `/pets?id=${created.body.id}`)).body.length, 1, 'asking removes nothing');
      await assertAccessible(page, 'a removal waiting for its confirmation');
      await row.getByRole('button', { name: 'Confirm' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Removed Leaving ${dialect}` })
        .waitFor();
      await page.getByText('No animal matches.').waitFor();
      assert.deepEqual((await store.api('GET', `/pets?id=${created.body.id}`)).body, []);
      await page.close();
    });

    it(
      "an animal's page > opened by its address, signed in from an earlier visit > shows the animal and its orders",
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const pet = await store.api('POST', '/pets', { name: `Ordered ${dialect}`, categoryId: 4 });
        const order = await store.api('POST', '/store/orders', { petId: pet.body.id });
        assert.equal(order.status, 201);
        const page = await signedIn(`animals/${pet.body.id}`);
        await page.getByRole('heading', { name: `Ordered ${dialect}`, level: 1 }).waitFor();
        const orders = page.getByRole('table', { name: 'Orders for this animal' });
        await orders
          .getByRole('row')
          .filter({ hasText: String(order.body.id) })
          .filter({ hasText: 'placed' })
          .waitFor();
        await page.getByText('pending', { exact: true }).waitFor();
        await assertAccessible(page, "an animal's page with its orders");
        await page.reload();
        await page.getByRole('heading', { name: `Ordered ${dialect}`, level: 1 }).waitFor();
        await page.close();
      },
    );

    it(
      "orders > an order placed for an animal, approved and delivered > only the actions the state machine allows are offered, and the animal's status follows",
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const pet = await store.api('POST', '/pets', { name: `To order ${dialect}`, categoryId: 5 });
        const page = await signedIn('orders');
        await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
        await page.getByLabel('Animal ID').fill(String(pet.body.id));
        await page.getByRole('button', { name: 'Place order' }).click();
        const placed = await page.getByRole('status').filter({ hasText: 'placed for animal' }).innerText();
        const orderId = Number(/Order (\d+) placed/.exec(placed)?.[1]);
        const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(orderId), exact: true }) });
        await row.getByRole('cell', { name: 'pending', exact: true }).waitFor();
        const offered = async () => (await row.getByRole('button').allInnerTexts()).sort();
        assert.deepEqual(await offered(), ['Approve order', 'Cancel order']);
        await assertAccessible(page, 'the orders page with a placed order');

        await row.getByRole('button', { name: 'Approve order' }).click();
        await row.getByRole('cell', { name: 'approved', exact: true }).waitFor();
        assert.deepEqual(await offered(), ['Cancel order', 'Deliver order']);
        await row.getByRole('button', { name: 'Deliver order' }).click();
        await row.getByRole('cell', { name: 'delivered', exact: true }).waitFor();
        await row.getByRole('cell', { name: 'sold', exact: true }).waitFor();
        assert.deepEqual(await offered(), [], 'a delivered order has no action left');
        assert.equal((await store.api('GET', `/store/orders/${orderId}`)).body.status, 'delivered');
        assert.equal((await store.api('GET', `/pets?id=${pet.body.id}`)).body[0].status, 'sold');
        await assertAccessible(page, 'the orders page with a delivered order');
        await page.close();
      },
    );

    it(
      'activity > an event made through the API appears without a reload; "Pause" holds, "Resume" and a network drop continue from the last event with nothing missed',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        const page = await signedIn('activity');
        const state = page.getByRole('status').filter({ hasText: /^(Live|Paused|Connection lost|Connecting)/ });
        await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
        const eventOf = (name: string) => page.getByRole('row').filter({ hasText: name });

        await store.api('POST', '/pets', { name: `Live one ${dialect}`, categoryId: 1 });
        await eventOf(`Live one ${dialect}`).filter({ hasText: 'pet.created' }).waitFor();
        await assertAccessible(page, 'the activity page with a live event');

        await page.getByRole('button', { name: 'Pause' }).click();
        await page.getByRole('status').filter({ hasText: 'Paused' }).waitFor();
        await store.api('POST', '/pets', { name: `While paused ${dialect}`, categoryId: 1 });
        assert.equal(await eventOf(`While paused ${dialect}`).count(), 0, 'paused: nothing new shown');
        await page.getByRole('button', { name: 'Resume' }).click();
        await eventOf(`While paused ${dialect}`).waitFor();

        // Offline until the page has given up on its requests (the client's own retries included).
        await page.context().setOffline(true);
        await page.getByRole('status').filter({ hasText: 'Connection lost' }).waitFor({ timeout: 60_000 });
        await store.api('POST', '/pets', { name: `While offline ${dialect}`, categoryId: 1 });
        await page.context().setOffline(false);
        await eventOf(`While offline ${dialect}`).waitFor();
        await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
        // Each event once, in the order they happened (newest first).
        const names = (await page.getByRole('row').allInnerTexts()).filter((text) => text.includes(dialect) && text.includes('pet.created'));
        assert.deepEqual(
          names.map((text) => /(Live one|While paused|While offline)/.exec(text)?.[1]),
          ['While offline', 'While paused', 'Live one'],
        );

        // A new filter starts from the present, once its cursor is known: the page says "Live" only
        // then. The cursor is answered late here, so events made before it would be lost, not shown.
        await page.route(/\/v1\/events\?.*start=latest/, async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await route.continue();
        });
        await page.getByLabel('Type').selectOption('order.*');
        await page.getByText('No event yet since this page opened.').waitFor();
        await page.getByRole('status').filter({ hasText: /^Live/ }).waitFor();
        await store.api('POST', '/pets', { name: `Filtered out ${dialect}`, categoryId: 1 });
        const pet = await store.api('POST', '/pets', { name: `Ordered live ${dialect}`, categoryId: 1 });
        await store.api('POST', '/store/orders', { petId: pet.body.id });
        await page.getByRole('row').filter({ hasText: 'order.placed' }).waitFor();
        assert.equal(await eventOf(`Filtered out ${dialect}`).count(), 0, 'the type filter holds');
        assert.ok(await state.count());
        await page.close();
      },
    );

    it('keyboard only > sign in, then add an animal, without the mouse', { skip: NO_CHROMIUM, timeout: 120_000 }, async () => {
      const page = await openPage();
      const tabToControl = (role: 'textbox' | 'button', name: string) => tabTo(page, page.getByRole(role, { name, exact: true }));
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await tabToControl('textbox', 'API key');
      await page.keyboard.type(store.key);
      await tabToControl('button', 'Sign in');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Animals', level: 1 }).waitFor();

      await tabToControl('button', 'Add animal');
      await page.keyboard.press('Enter');
      await tabToControl('textbox', 'Name');
      await page.keyboard.type(`Keyboard ${dialect}`);
      await tabToControl('textbox', 'Category');
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: `Added Keyboard ${dialect}` })
        .waitFor();
      const found = await store.api('GET', `/pets?name=${encodeURIComponent(`Keyboard ${dialect}`)}`);
      assert.equal(found.body.length, 1);
      await page.close();
    });

    it(
      'each view > 375 px wide, without horizontal scrolling; its first load is at most 150 KB of JavaScript and CSS after gzip',
      { skip: NO_CHROMIUM, timeout: 120_000 },
      async () => {
        await store.api('POST', '/pets', { name: `A rather long animal name to wrap at 375 pixels ${dialect}`, categoryId: 123456 });
        const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
        await page.goto(store.consoleUrl);
        await signIn(page, store.key);
        for (const [path, heading] of [
          ['animals', 'Animals'],
          ['orders', 'Orders'],
          ['activity', 'Activity'],
        ] as const) {
          // The script renders the heading and the stylesheet blocks rendering: both have arrived once it shows.
          const loaded: Promise<number>[] = [];
          const counting = (response: import('playwright-core').Response) => {
            const type = response.request().resourceType();
            if (type === 'script' || type === 'stylesheet') loaded.push(response.body().then((body) => gzipSync(body).length));
          };
          page.on('response', counting);
          await page.goto(store.consoleUrl + path);
          await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
          page.off('response', counting);
          assert.ok(loaded.length >= 2, `${path}: its script and stylesheet were seen`);
          const total = (await Promise.all(loaded)).reduce((sum, bytes) => sum + bytes, 0);
          assert.ok(total <= 150 * 1024, `${path}: ${total} bytes of JavaScript and CSS after gzip`);
          measured.push(`${path}: ${total} B`);
          await assertNoHorizontalScroll(page, path);
          await assertAccessible(page, `${path} at 375 px`);
        }
        await page.close();
      },
    );
  });
}
