/**
 * The benchmark: `npm run bench` (which builds dist/ first). See bench/README.md and
 * docs/performance.md ("Method") for what it measures and how to read it.
 *
 * For each database (SQLite always; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * is set) it makes a key with `keys create` (runCli), seeds pets straight into the database
 * (targets.ts), starts the real service with the tests' own helper (spawnService), a bare
 * node:http baseline and the database's naive Fastify peer (servers.ts, bench/peers/), all pinned
 * to one core, and drives each scenario (scenarios.ts) from another core with wrk or autocannon
 * (load.ts): rounds alternate baseline, peer and service (measure.ts), and the medians are
 * reported with the ratios of the service to the baseline and to the peer, and the goals
 * (goals.ts) met or missed (report.ts, outcome.ts).
 *
 * Everything it starts or creates (servers, load generator, temporary folder, PostgreSQL schema)
 * is removed again, also when a step fails or the run is interrupted (cleanup.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../test/helpers/spawn-service.js';
import { cleanupAll, onCleanup, wasInterrupted } from './cleanup.js';
import { runConsoleMeasurement } from './console.js';
import { FEED_MEASUREMENTS, type FeedMeasurement, runFeedMeasurements } from './feed.js';
import { checkGoals } from './goals.js';
import { runScenario, type Servers } from './measure.js';
import { comparisons, gitCommit, printProfiles } from './outcome.js';
import { type BenchReport, renderMarkdown, renderRatiosSvg, type ScenarioResult } from './report.js';
import { type Context, scenarios, SEQUENTIAL_CLIENTS } from './scenarios.js';
import { databasePoolMax, startBaseline, startPeer, startService } from './servers.js';
import { HAS_TASKSET, listFromEnv, log, pinThisProcess, POSTGRES_URL, RESULTS_DIR, SETTINGS, USE_WRK } from './settings.js';
import { bulkInsertPets, countPets, postgresTarget, sqliteTarget, type Target } from './targets.js';
import { benchWebhookDeliveries, describeWebhookResult } from './webhook-deliveries.js';

async function benchTarget(target: Target, selected: Set<string>, profileDir: string | undefined): Promise<ScenarioResult[]> {
  const keyResult = await runCli(['keys', 'create', '--name', 'bench'], { DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { timeoutMs: 60_000 });
  const key = keyResult.stdout.trim().split('\n').at(-1)?.trim();
  if (keyResult.code !== 0 || !key) throw new Error(`keys create failed (${keyResult.code}): ${keyResult.stderr}`);
  log(`${target.label}: seeding ${SETTINGS.seedPets.toLocaleString('en')} pets straight into the table`);
  const seeded = await bulkInsertPets(target, SETTINGS.seedPets);
  const cursorSecret = randomBytes(24).toString('base64url');
  const context: Context = { target, key, seeded, cursorSecret };
  const chosen = scenarios(context).filter((scenario) => selected.has(scenario.name));
  const results: ScenarioResult[] = [];

  let service = await startService(target, cursorSecret, { profileDir });
  const baseline = await startBaseline(service, key);
  const peer = await startPeer(target, key);
  const servers = (): Servers => ({ baseline, peer, service });

  for (const scenario of chosen.filter((s) => s.phase === 'seeded')) {
    log(`${target.label}: ${scenario.name}`);
    results.push(await runScenario(target.label, scenario, servers()));
  }
  const big = chosen.filter((s) => s.phase === 'big');
  if (big.length > 0) {
    const missing = SETTINGS.bigPets - (await countPets(target));
    if (missing > 0) {
      log(`${target.label}: growing the table to ${SETTINGS.bigPets.toLocaleString('en')} pets`);
      const started = performance.now();
      await bulkInsertPets(target, missing);
      log(`  ${missing.toLocaleString('en')} pets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const scenario of big) {
      log(`${target.label}: ${scenario.name}`);
      results.push(await runScenario(target.label, scenario, servers()));
    }
  }
  const exitCode = await service.stop();
  if (exitCode !== 0) throw new Error(`${target.label}: the service exited with code ${exitCode} after SIGTERM (expected 0)`);
  for (const scenario of chosen.filter((s) => s.phase === 'workers')) {
    log(`${target.label}: ${scenario.name}`);
    service = await startService(target, cursorSecret, { workers: 2, profileDir });
    results.push(await runScenario(target.label, scenario, servers()));
    const workersExit = await service.stop();
    if (workersExit !== 0) throw new Error(`${target.label}: the service with 2 workers exited with code ${workersExit} after SIGTERM`);
  }
  await peer.stop();
  await baseline.stop();
  return results;
}

async function main(): Promise<number> {
  const started = Date.now();
  const loadAtStart = loadavg();
  // Read now: dist/ was built from the working tree a moment ago, and others may commit meanwhile.
  const commit = gitCommit();
  pinThisProcess();
  mkdirSync(RESULTS_DIR, { recursive: true });
  const feed = listFromEnv('BENCH_FEED');
  if (feed) {
    const unknownFeed = feed.filter((name) => !(FEED_MEASUREMENTS as readonly string[]).includes(name));
    if (unknownFeed.length > 0) throw new Error(`BENCH_FEED lists ${FEED_MEASUREMENTS.join(' and/or ')} (got ${unknownFeed.join(', ')})`);
    // The feed's measurements run alone: they start their own services and take minutes.
    const failed = await runFeedMeasurements(new Set(feed as FeedMeasurement[]));
    log(`feed measurements done after ${Math.round((Date.now() - started) / 1000)} s`);
    if (failed.length > 0) log(`FAILED checks: ${failed.join(' | ')}`);
    return failed.length > 0 ? 1 : 0;
  }
  if (process.env.BENCH_CONSOLE?.trim() === '1') {
    // Like the feed's, the console's measurement runs alone, with its own services.
    const exitCode = await runConsoleMeasurement();
    log(`console measurement done after ${Math.round((Date.now() - started) / 1000)} s`);
    return exitCode;
  }
  const all = scenarios({ target: undefined as never, key: '', seeded: { first: 1, last: 1 }, cursorSecret: 'x'.repeat(32) }).map((s) => s.name);
  const requested = listFromEnv('BENCH_SCENARIOS') ?? (SETTINGS.profile ? [SETTINGS.profile] : all);
  const unknown = requested.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; the scenarios are ${all.join(', ')}`);
  if (SETTINGS.profile && !all.includes(SETTINGS.profile))
    throw new Error(`BENCH_PROFILE=${SETTINGS.profile} is no scenario; the scenarios are ${all.join(', ')}`);
  const selected = new Set(requested);

  const results: ScenarioResult[] = [];
  const targets: (() => Promise<Target>)[] = SETTINGS.databases.has('sqlite') ? [sqliteTarget] : [];
  const postgresUrl = POSTGRES_URL;
  if (postgresUrl && SETTINGS.databases.has('postgres')) targets.push(() => postgresTarget(postgresUrl));
  else if (!postgresUrl) log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL to include it');
  const descriptions: string[] = [];
  for (const makeTarget of targets) {
    const target = await makeTarget();
    descriptions.push(`${target.label}: ${target.description}`);
    const profileDir = SETTINGS.profile ? mkdtempSync(join(tmpdir(), 'animal-store-bench-profile-')) : undefined;
    if (profileDir) onCleanup(`remove ${profileDir}`, async () => rmSync(profileDir, { recursive: true, force: true }));
    results.push(...(await benchTarget(target, selected, profileDir)));
    if (profileDir) await printProfiles(profileDir, target.label);
    // Not a load scenario (no baseline to compare with): its figure goes into the report's notes.
    if (process.env.BENCH_WEBHOOKS !== '0') {
      log(`${target.label}: webhook deliveries`);
      const webhooks = describeWebhookResult(await benchWebhookDeliveries(target));
      log(`  ${webhooks}`);
      descriptions.push(webhooks);
    }
    await cleanupAll();
  }

  const cpu = cpus();
  const report: BenchReport = {
    date: new Date().toISOString(),
    commit,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform} ${process.arch}, Node ${process.version}`,
    loadGenerator: USE_WRK
      ? `wrk -t${SETTINGS.wrkThreads} -c${SETTINGS.connections} -d${SETTINGS.seconds}s (bench/wrk/scenario.lua); list20-seq16: -c${SEQUENTIAL_CLIENTS} -d${SETTINGS.sequentialSeconds}s`
      : `autocannon, ${SETTINGS.connections} connections, ${SETTINGS.seconds} s (wrk not installed); list20-seq16: ${SEQUENTIAL_CLIENTS} connections, ${SETTINGS.sequentialSeconds} s`,
    settings: {
      BENCH_SECONDS: SETTINGS.seconds,
      BENCH_WARMUP_SECONDS: SETTINGS.warmupSeconds,
      BENCH_CONNECTIONS: SETTINGS.connections,
      BENCH_SEQUENTIAL_SECONDS: SETTINGS.sequentialSeconds,
      BENCH_ROUNDS: SETTINGS.rounds,
      BENCH_SEED_PETS: SETTINGS.seedPets,
      BENCH_BIG_PETS: SETTINGS.bigPets,
    },
    notes: [
      HAS_TASKSET
        ? `Pinning (taskset): servers (service, baseline and peer) on CPU ${SETTINGS.serverCpus}, \`--workers 2\` on CPUs ${SETTINGS.workersCpus}, the load generator and this process on CPU ${SETTINGS.clientCpus}; PostgreSQL is not pinned.`
        : 'Pinning: none (taskset missing or a single CPU): server and load generator share the CPUs.',
      `Service: LOG_LEVEL=info, RATE_LIMIT_PER_MINUTE=${SETTINGS.rateLimitPerMinute} (the limiter runs, the load never reaches it), CURSOR_SECRET set by the bench.`,
      `Each figure is the median of ${SETTINGS.rounds} round(s); in each round the baseline (a bare node:http server answering the service's own 20-pet page, prebuilt) runs first, then the peer (for the scenarios it serves), then the service, each after ${SETTINGS.warmupSeconds} s of unmeasured warm-up. Counts of ≥400 responses and errors are summed over the rounds; max is the slowest answer of any round.`,
      `Peer: a naive Fastify 5 server on the same database (bench/peers/: logger off, a static bearer check, the same schemas; on PostgreSQL a pg Pool of ${databasePoolMax()} connections (DATABASE_POOL_MAX) with named statements, on SQLite better-sqlite3 with prepared statements in WAL mode). It serves only GET /v1/pets?limit=N and GET /v1/pets/{id}; "—" marks the scenarios it does not serve.`,
      'CPU µs/req: user+system CPU of the server processes (from /proc/<pid>/stat) over the run ÷ responses; on PostgreSQL "+ N db" adds the CPU of the backends serving that server (found by application_name). CPU ratio = baseline µs/req ÷ service µs/req (database included); service ÷ peer CPU = service µs/req ÷ peer µs/req (databases included); throughput ratio = service req/s ÷ baseline req/s.',
      'Load average: os.loadavg() when the run (above) or the scenario (its row, 1-minute figure) started and ended.',
      'Peak RSS: the largest VmRSS sampled every 200 ms during the measured run, summed over the server processes.',
      ...descriptions,
    ],
    loadAverage: { start: loadAtStart, end: loadavg() },
    results,
    comparisons: comparisons(results),
    goals: checkGoals(results),
  };
  const markdown = renderMarkdown(report);
  const svg = renderRatiosSvg(report);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const stem = `${report.date.slice(0, 19).replaceAll(':', '-')}-${commit}`;
  for (const [name, text] of [
    [`${stem}.json`, json],
    [`${stem}.md`, markdown],
    ['latest.json', json],
    ['latest.md', markdown],
    ['ratios.svg', svg],
  ] as const) {
    writeFileSync(join(RESULTS_DIR, name), text);
  }
  process.stdout.write(`\n${markdown}`);
  log(`written to bench/results/${stem}.{json,md}, latest.{json,md} and ratios.svg after ${Math.round((Date.now() - started) / 1000)} s`);

  const failed = results.filter((r) => r.problems.length > 0).map((r) => `${r.database} ${r.scenario}: ${r.problems.join('; ')}`);
  if (failed.length > 0) log(`FAILED checks: ${failed.join(' | ')}`);
  return failed.length > 0 ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (!wasInterrupted()) log(`failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await cleanupAll();
}
if (!wasInterrupted()) {
  process.exitCode = exitCode;
  // Nothing should keep the event loop alive now; if something does, do not hang.
  setTimeout(() => process.exit(exitCode), 2000).unref();
}
