/**
 * The console's first page after signing in, measured (never asserted in a test):
 * `BENCH_CONSOLE=1 npm run bench` runs it instead of the scenarios (bench/README.md, "The console").
 *
 * On each database of BENCH_DATABASES: BENCH_SEED_PETS animals (10,000) inserted straight into the
 * table, a key made with `keys create`, the service started pinned like the scenarios' service, and
 * the baseline beside it. Chromium (started by this process, so on the client CPU) opens /console/
 * in a fresh browser context each round, types the key and presses "Sign in"; the round's figure
 * is the time, on the page's own clock, from the form's submit to the frame after the Animals table
 * holds its first page of rows. One unmeasured round first; before each measured round, one
 * baseline run under list20's load, whose CPU µs per request is published beside the figures.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/machine-tools.js';
import { runCli } from '../test/helpers/spawn-service.js';
import { withDeadline } from '../test/helpers/wait-for.js';
import { cleanupAll, onCleanup } from './cleanup.js';
import { type ConsoleResult, type ConsoleRound, renderConsoleMarkdown } from './console-report.js';
import { measureRun } from './measure.js';
import { gitCommit } from './outcome.js';
import { processCpuSeconds } from './proc.js';
import { scenarios } from './scenarios.js';
import { type Server, startBaseline, startService } from './servers.js';
import { intFromEnv, log, POSTGRES_URL, RESULTS_DIR, SETTINGS } from './settings.js';
import { bulkInsertPets, postgresTarget, sqliteTarget, type Target } from './targets.js';

const ROUNDS = intFromEnv('BENCH_CONSOLE_ROUNDS', 7, 1, 100);
/** The Animals view's page size (console/src/views/animals.tsx): the rows a round waits for. */
const FIRST_PAGE_ROWS = 25;
const STUCK_MS = 60_000;

/**
 * Run in the page before "Sign in" is pressed (through the DevTools protocol, which the page's CSP
 * does not govern): resolves with the ms from the form's submit to the animation frame after the
 * Animals table holds `rows` rows, each with its animal's link.
 */
const ARM_TIMER = (rows: number) => `
  globalThis.__firstPage = new Promise((resolve) => {
    let pressed;
    document.addEventListener('submit', () => (pressed = performance.now()), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (pressed === undefined || document.querySelectorAll('main table tbody tr a').length < ${rows}) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - pressed));
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  // The script's value, so that the evaluation does not wait for the promise above.
  'armed';`;

async function signInRound(browser: Browser, service: Server, key: string): Promise<ConsoleRound> {
  const loadAverage = loadavg()[0]!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(STUCK_MS);
    await page.goto(`${service.baseUrl}/console/`);
    await page.getByLabel('API key').fill(key);
    await page.evaluate(ARM_TIMER(FIRST_PAGE_ROWS));
    const cpuBefore = service.pids().map((pid) => processCpuSeconds(pid));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const ms = await withDeadline(page.evaluate<number>('globalThis.__firstPage'), STUCK_MS, 'the first page of animals after "Sign in"');
    const cpuAfter = service.pids().map((pid) => processCpuSeconds(pid));
    let serviceCpuMs: number | undefined = 0;
    for (const [i, after] of cpuAfter.entries()) {
      const before = cpuBefore[i];
      serviceCpuMs = serviceCpuMs === undefined || after === undefined || before === undefined ? undefined : serviceCpuMs + (after - before) * 1000;
    }
    return { ms, serviceCpuMs, loadAverage };
  } finally {
    await context.close();
  }
}

async function measureTarget(target: Target, browser: Browser): Promise<ConsoleResult> {
  const loadAtStart = loadavg();
  const created = await runCli(['keys', 'create', '--name', 'bench console'], { DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { timeoutMs: STUCK_MS });
  const key = created.stdout.trim().split('\n').at(-1)?.trim();
  if (created.code !== 0 || !key) throw new Error(`keys create failed (${created.code}): ${created.stderr}`);
  log(`${target.label}: seeding ${SETTINGS.seedPets.toLocaleString('en')} pets straight into the table`);
  const seeded = await bulkInsertPets(target, SETTINGS.seedPets);
  const cursorSecret = randomBytes(24).toString('base64url');
  const service = await startService(target, cursorSecret);
  const baseline = await startBaseline(service, key);
  const list20 = scenarios({ target, key, seeded, cursorSecret }).find((scenario) => scenario.name === 'list20')!;
  const rounds: ConsoleRound[] = [];
  const baselineUs: number[] = [];
  log(`${target.label}: one unmeasured sign-in`);
  await signInRound(browser, service, key);
  for (let round = 1; round <= ROUNDS; round++) {
    const baselineRun = await measureRun(baseline, list20);
    if (baselineRun.serverCpuUsPerRequest !== undefined) baselineUs.push(baselineRun.serverCpuUsPerRequest);
    rounds.push(await signInRound(browser, service, key));
    log(`  ${target.label} round ${round}: ${rounds.at(-1)!.ms.toFixed(0)} ms; baseline ${baselineRun.serverCpuUsPerRequest?.toFixed(0) ?? '–'} µs/req`);
  }
  const exitCode = await service.stop();
  if (exitCode !== 0) throw new Error(`${target.label}: the service exited with code ${exitCode} after SIGTERM (expected 0)`);
  await baseline.stop();
  return {
    database: target.label,
    animals: SETTINGS.seedPets,
    rowsShown: FIRST_PAGE_ROWS,
    rounds,
    baselineUsPerRequest: baselineUs,
    loadAverage: { start: loadAtStart, end: loadavg() },
  };
}

/** Runs the measurement on every database asked for, writes and prints the report; answers the exit code. */
export async function runConsoleMeasurement(): Promise<number> {
  const commit = gitCommit();
  const { chromium } = await import('playwright-core');
  const targets: (() => Promise<Target>)[] = SETTINGS.databases.has('sqlite') ? [sqliteTarget] : [];
  const postgresUrl = POSTGRES_URL;
  if (postgresUrl && SETTINGS.databases.has('postgres')) targets.push(() => postgresTarget(postgresUrl));
  else if (!postgresUrl) log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL to include it');
  const results: ConsoleResult[] = [];
  for (const makeTarget of targets) {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: STUCK_MS });
    onCleanup('close Chromium', () => browser.close());
    const target = await makeTarget();
    results.push(await measureTarget(target, browser));
    await cleanupAll();
  }
  const cpu = cpus();
  const date = new Date().toISOString();
  const markdown = renderConsoleMarkdown({
    date,
    commit,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform} ${process.arch}, Node ${process.version}`,
    rounds: ROUNDS,
    results,
  });
  const stem = `${date.slice(0, 19).replaceAll(':', '-')}-${commit}-console`;
  writeFileSync(join(RESULTS_DIR, `${stem}.json`), `${JSON.stringify({ date, commit, results }, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, `${stem}.md`), markdown);
  writeFileSync(join(RESULTS_DIR, 'latest-console.md'), markdown);
  process.stdout.write(`\n${markdown}`);
  log(`written to bench/results/${stem}.{json,md} and latest-console.md`);
  return 0;
}
