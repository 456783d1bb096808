/**
 * What the console's browser tests share: a real service (`node dist/cli.js serve`, the console
 * built by `npm run build`) on a fresh database with a key made by the CLI, a way to call its API
 * as an integrator would, signing in through the page, and axe-core run inside the page.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import type { DialectName } from '../../src/db/database-url.js';
import { runCli, spawnService, type RunningService } from './spawn-service.js';
import { createEmptyDatabaseUrl } from './test-db.js';

export interface ConsoleService {
  service: RunningService;
  /** http://127.0.0.1:PORT/console/ */
  consoleUrl: string;
  /** A key made by `animal-store keys create` (every scope). */
  key: string;
  /** Calls the API with `key`; answers the status, the body (parsed when JSON) and the headers. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** A key made by the CLI with these scopes only. */
  keyWithScopes(name: string, scopes: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startConsoleService(dialect: DialectName, env: Record<string, string> = {}, options: { keyName?: string } = {}): Promise<ConsoleService> {
  const place = await createEmptyDatabaseUrl(dialect);
  const migrated = await runCli(['migrate'], { DATABASE_URL: place.url });
  assert.equal(migrated.code, 0, migrated.stderr);
  const makeKey = async (name: string, scopes: string[] = []) => {
    const created = await runCli(['keys', 'create', '--name', name, ...scopes.flatMap((scope) => ['--scope', scope])], { DATABASE_URL: place.url });
    assert.equal(created.code, 0, created.stderr);
    return created.stdout.trim().split('\n').at(-1)!;
  };
  const key = await makeKey(options.keyName ?? 'console-test');
  const service = await spawnService({ databaseUrl: place.url, env });
  return {
    service,
    consoleUrl: `${service.baseUrl}/console/`,
    key,
    async api(method, path, body, headers = {}) {
      const response = await fetch(`${service.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text, headers: response.headers };
    },
    keyWithScopes: (name, scopes) => makeKey(name, scopes),
    async stop() {
      await service.stop();
      await place.remove();
    },
  };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is now. Its source is evaluated
 * through the DevTools protocol, which the page's Content-Security-Policy does not govern (a
 * script tag would be refused, as it should be).
 */
export async function assertAccessible(page: Page, state: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe, document } = globalThis as any;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return (results.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[])
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe-core on ${state}`);
}

/** Signs in through the page as a person would, and waits for the navigation. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/**
 * Presses Tab until `target` has the focus (at most `presses` times), as a keyboard-only person
 * would, then checks the focus shows: the browser counts it `:focus-visible` and the style draws an
 * outline around it.
 */
export async function tabTo(page: Page, target: Locator, presses = 60): Promise<void> {
  const focused = () => target.evaluate((element) => element === (globalThis as any).document.activeElement).catch(() => false);
  for (let count = 0; count < presses && !(await focused()); count++) await page.keyboard.press('Tab');
  if (!(await focused())) assert.fail(`Tab never reached ${target.toString()}`);
  await assertFocusVisible(page);
}

/** Waits until `target` has the focus (a control focused once it is drawn, a render later), or fails saying `what`. */
export async function waitForFocus(target: Locator, what: string): Promise<void> {
  const element = await target.elementHandle();
  await target
    .page()
    .waitForFunction((candidate) => candidate === (globalThis as any).document.activeElement, element, { timeout: 15_000 })
    .catch(() => assert.fail(what));
}

/** The focused element is `:focus-visible` and has an outline to show it. */
export async function assertFocusVisible(page: Page): Promise<void> {
  const focus = await page.evaluate(() => {
    const element = (globalThis as any).document.activeElement;
    const style = (globalThis as any).getComputedStyle(element);
    return {
      what: `${element.tagName} ${element.textContent ?? ''}`,
      visible: element.matches(':focus-visible') as boolean,
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
    };
  });
  assert.ok(focus.visible && !/^none|\b0px$/.test(focus.outline), `the focus on ${focus.what} shows (outline: ${focus.outline})`);
}

/** The page has no horizontal scrolling: its content fits the viewport's width. */
export async function assertNoHorizontalScroll(page: Page, state: string): Promise<void> {
  const widths = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return { scroll: root.scrollWidth as number, client: root.clientWidth as number };
  });
  assert.ok(widths.scroll <= widths.client, `${state}: ${widths.scroll} px of content in ${widths.client} px`);
}
