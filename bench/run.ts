/**
 * The benchmark of issue 9: `npm run bench` (which builds dist/ first). See bench/README.md and
 * docs/performance.md ("Method") for what it measures and how to read it.
 *
 * For each database (SQLite always; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * is set) it makes a key with `keys create` (runCli), seeds pets straight into the database, starts
 * the real service with the tests' own helper (spawnService) and a bare node:http baseline
 * (bench/baseline-server.js), both pinned to one core, and drives each scenario from another core
 * with wrk (bench/wrk/scenario.lua), autocannon when wrk is missing: rounds alternate baseline and
 * service, and the medians are reported with the ratios of the service to the baseline.
 *
 * Everything it starts or creates (servers, load generator, temporary folder, PostgreSQL schema)
 * is removed again, also when a step fails or the run is interrupted.
 */
import autocannon from 'autocannon';
import Sqlite from 'better-sqlite3';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CONFIG_DEFAULTS } from '../src/config.js';
import { petCursorFilters, petCursors } from '../src/pets/pets.cursor.js';
import { type RunningService, runCli, spawnService, waitForListeningProcesses } from '../test/helpers/spawn-service.js';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-top.js';
import {
  type BenchReport,
  type Comparison,
  medianFigures,
  ratios,
  renderMarkdown,
  renderRatiosSvg,
  type RunFigures,
  type ScenarioResult,
  totalCpuUsPerRequest,
} from './report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = join(ROOT, 'bench', 'results');
const WRK_SCRIPT = join(ROOT, 'bench', 'wrk', 'scenario.lua');
const BASELINE_SERVER = join(ROOT, 'bench', 'baseline-server.js');

// ---------------------------------------------------------------------------------------------
// Settings (environment variables, all optional)

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return Number(raw);
}

function listFromEnv(name: string): string[] | undefined {
  const raw = process.env[name]?.trim();
  return raw ? raw.split(',').map((item) => item.trim()).filter(Boolean) : undefined;
}

const SETTINGS = {
  /** Measured seconds per run. */
  seconds: intFromEnv('BENCH_SECONDS', 10, 1, 600),
  /** Unmeasured seconds of the same load before each run (JIT, connections, caches). */
  warmupSeconds: intFromEnv('BENCH_WARMUP_SECONDS', 1, 0, 60),
  connections: intFromEnv('BENCH_CONNECTIONS', 50, 1, 10_000),
  /** Rounds per scenario; each round is one baseline run then one service run. */
  rounds: intFromEnv('BENCH_ROUNDS', 3, 1, 50),
  /** Pets seeded before the first scenario (the "10,000 pets" of the size comparison). */
  seedPets: intFromEnv('BENCH_SEED_PETS', 10_000, 100, 10_000_000),
  /** The pets table's size for the scenarios marked "1m". */
  bigPets: intFromEnv('BENCH_BIG_PETS', 1_000_000, 1000, 100_000_000),
  /** Available pets seeded before each order run: each order takes another one. */
  orderPets: intFromEnv('BENCH_ORDER_PETS', 0, 0, 10_000_000),
  /** The service's RATE_LIMIT_PER_MINUTE: the limiter runs, but the load never reaches it. */
  rateLimitPerMinute: intFromEnv('BENCH_RATE_LIMIT_PER_MINUTE', 10_000_000, 0, 10_000_000),
  wrkThreads: intFromEnv('BENCH_THREADS', 1, 1, 64),
  serverCpus: process.env.BENCH_SERVER_CPUS?.trim() || '0',
  clientCpus: process.env.BENCH_CLIENT_CPUS?.trim() || '1',
  workersCpus: process.env.BENCH_WORKERS_CPUS?.trim() || '0',
  loadGenerator: (process.env.BENCH_LOAD?.trim() || 'auto') as 'auto' | 'wrk' | 'autocannon',
  profile: process.env.BENCH_PROFILE?.trim() || undefined,
};
const POSTGRES_URL = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim() || undefined;
const HAS_TASKSET = cpus().length >= 2 && spawnSync('taskset', ['--version']).error === undefined;
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;
const USE_WRK = SETTINGS.loadGenerator === 'wrk' || (SETTINGS.loadGenerator === 'auto' && HAS_WRK);
if (SETTINGS.loadGenerator === 'wrk' && !HAS_WRK) throw new Error('BENCH_LOAD=wrk but wrk is not installed');

// ---------------------------------------------------------------------------------------------
// Clean-up: every resource registers its release here as soon as it exists.

const cleanups: Array<{ label: string; run: () => Promise<void>; sync: () => void }> = [];

function onCleanup(label: string, run: () => Promise<void>, sync: () => void = () => {}): () => Promise<void> {
  const entry = { label, run, sync };
  cleanups.push(entry);
  // Releasing early (the normal path) removes the entry, so it runs once.
  return async () => {
    const index = cleanups.indexOf(entry);
    if (index === -1) return;
    cleanups.splice(index, 1);
    await entry.run();
  };
}

/** Available pets seeded per second of a placeOrder run (each order takes another one). */
const ORDER_PETS_PER_SECOND = 15_000;

async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) {
    const entry = cleanups.pop()!;
    try {
      await entry.run();
    } catch (error) {
      log(`clean-up "${entry.label}" failed: ${(error as Error).message}`);
    }
  }
}

// Last resort when the process exits without the async path (uncaught error, process.exit).
process.on('exit', () => {
  for (const entry of cleanups.reverse()) {
    try {
      entry.sync();
    } catch {
      // nothing more can be done here
    }
  }
});

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping and cleaning up`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** A started child process that is stopped (SIGTERM, then SIGKILL) by the clean-up. */
function ownChild(child: ChildProcess, label: string): { exited: Promise<number | null>; stop: () => Promise<void> } {
  const exited = new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });
  const release = onCleanup(
    `stop ${label} pid ${child.pid}`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
    () => void child.kill('SIGKILL'),
  );
  return { exited, stop: release };
}

// ---------------------------------------------------------------------------------------------
// Pinning: the server on one core, the load generator (and this process) on the other.

function pinned(cpuList: string): string[] {
  return HAS_TASKSET ? ['taskset', '-c', cpuList] : [];
}

function pinThisProcess(): void {
  if (!HAS_TASKSET) return;
  // -a: every thread of this process (autocannon runs here when wrk is missing).
  execFileSync('taskset', ['-a', '-c', '-p', SETTINGS.clientCpus, String(process.pid)], { stdio: 'ignore' });
}

// ---------------------------------------------------------------------------------------------
// /proc readings

let clockTicksPerSecond: number | undefined;

/** CPU seconds (user + system) a process has used so far; undefined when it is gone or off Linux. */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
  } catch {
    return undefined;
  }
}

/** The processes of a server: the process itself and its children (the workers of `--workers N`). */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Databases

interface Target {
  label: 'SQLite' | 'PostgreSQL';
  /** DATABASE_URL for the service. */
  url: string;
  description: string;
  /** PostgreSQL: the application_name of the service's connections, to find their backends. */
  applicationName?: string;
  /** Runs one statement on a connection of the bench's own (seeding, counting). */
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
}

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
  onCleanup(
    `remove ${dir}`,
    async () => rmSync(dir, { recursive: true, force: true }),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  const file = join(dir, 'bench.db');
  let connection: Sqlite.Database | undefined;
  onCleanup('close the bench SQLite connection', async () => void connection?.close());
  return {
    label: 'SQLite',
    url: `sqlite:${file}`,
    description: 'SQLite file in a fresh temporary folder, the service’s own settings',
    async query<T>(text: string) {
      connection ??= new Sqlite(file, { timeout: 30_000 });
      const statement = connection.prepare(text);
      return (statement.reader ? statement.all() : (statement.run(), [])) as T[];
    },
  };
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  if (!/^postgres(ql)?:\/\//i.test(adminUrl)) throw new Error('BENCH_DATABASE_URL / TEST_DATABASE_URL must be a postgres:// URL');
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  onCleanup('close the bench PostgreSQL connection', () => admin.end());
  await admin.query(`create schema ${schema}`);
  onCleanup(`drop schema ${schema}`, async () => {
    await admin.query(`drop schema if exists ${schema} cascade`);
    log(`dropped schema ${schema}`);
  });
  const version = String((await admin.query('show server_version')).rows[0]?.server_version ?? '?');
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // The service's connections carry this name, so their backends (and their CPU) can be found.
  const applicationName = `animal-store-${schema}`;
  url.searchParams.set('application_name', applicationName);
  return {
    label: 'PostgreSQL',
    url: url.toString(),
    applicationName,
    description: `PostgreSQL ${version} at ${url.hostname}:${url.port || '5432'}${url.pathname}, fresh schema ${schema} (dropped afterwards); the PostgreSQL server is not pinned`,
    async query<T>(text: string) {
      await admin.query(`set search_path to ${schema}`);
      return (await admin.query(text)).rows as T[];
    },
  };
}

/** CPU seconds of each PostgreSQL backend serving the service (by application_name). */
async function backendCpu(target: Target): Promise<Map<number, number> | undefined> {
  if (!target.applicationName) return undefined;
  const rows = await target.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = '${target.applicationName}'`);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = processCpuSeconds(Number(pid));
    if (seconds !== undefined) cpu.set(Number(pid), seconds);
  }
  return cpu;
}

const STATUSES_SQL = `case n % 3 when 0 then 'available' when 1 then 'pending' else 'sold' end`;

/**
 * Inserts `count` pets in one statement, straight into the table (a million takes seconds, not the
 * hours the API would): names like `Kqz 123` (the first letter changes with every pet, as in
 * bench/query-plans.ts), ten categories, statuses cycling or all `available`. Answers the id range.
 */
let batches = 0;

async function bulkInsertPets(target: Target, count: number, status?: 'available'): Promise<{ first: number; last: number }> {
  const before = Number((await target.query<{ id: number | null }>('select max(id) as id from pets'))[0]?.id ?? 0);
  // The batch's mark: created_at = its number, a millisecond of 1970 the service never writes. The
  // ids are read back by it, since the service may still be finishing a previous run's creates.
  const batch = ++batches;
  const sqlite = target.label === 'SQLite';
  const letter = (every: number, base: number) => (sqlite ? `char(${base} + (n / ${every}) % 26)` : `chr(${base} + ((n / ${every}) % 26)::int)`);
  const name = `${letter(1, 65)} || ${letter(26, 97)} || ${letter(676, 97)} || ' ' || n`;
  const numbers = sqlite
    ? `with recursive g(n) as (select ${before + 1} union all select n + 1 from g where n < ${before + count}) select n from g`
    : `select n from generate_series(${before + 1}::bigint, ${before + count}::bigint) as n`;
  // Explicit ids: on PostgreSQL one statement is one transaction, and a pet's default id is its
  // transaction's id plus an offset, so rows of one statement would all get the same id.
  await target.query(
    `insert into pets (id, name, name_key, category_id, status, created_at)
     select n, ${name}, lower(${name}), 1 + n % 10, ${status ? `'${status}'` : STATUSES_SQL}, ${batch} from (${numbers}) as numbers`,
  );
  if (!sqlite) {
    await target.query('analyze pets');
    // Ids given by hand may lie above the listings' bound (visible_id_bound()) and above the ids
    // the service will make: `migrate` raises the offset above them, as the service does at start.
    const migrated = await runCli(['migrate'], { DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { timeoutMs: 120_000 });
    if (migrated.code !== 0) throw new Error(`migrate after seeding failed: ${migrated.stderr}`);
  }
  const [range] = await target.query<{ first: number; last: number; n: number }>(`select min(id) as first, max(id) as last, count(*) as n from pets where created_at = ${batch}`);
  const first = Number(range?.first);
  const last = Number(range?.last);
  // The scenarios walk the range, so its ids must be consecutive (on PostgreSQL a concurrent
  // insert could take ids in between; runScenario gives the service's last requests time to end).
  if (Number(range?.n) !== count || last - first + 1 !== count) throw new Error(`bulk insert of ${count} pets: got ${range?.n} pets with ids ${first}..${last}, not consecutive`);
  return { first, last };
}

async function countPets(target: Target): Promise<number> {
  return Number((await target.query<{ n: number }>('select count(*) as n from pets'))[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Servers

interface Server {
  label: string;
  baseUrl: string;
  /** The processes whose CPU and memory count. */
  pids(): number[];
  /** The PostgreSQL backends serving it, when it has any. */
  target?: Target;
  stop(): Promise<number | null>;
}

/** The service's settings: production defaults, a limit the load never reaches, and whatever the caller set. */
function serviceEnv(cursorSecret: string): Record<string, string> {
  const passed = Object.fromEntries(Object.keys(CONFIG_DEFAULTS).flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])));
  delete passed.DATABASE_URL;
  delete passed.PORT;
  delete passed.HOST;
  return {
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: String(SETTINGS.rateLimitPerMinute),
    // Set so the bench can make a deep cursor with the service's own code; the service reads its
    // secret once either way, so this changes no per-request work.
    CURSOR_SECRET: cursorSecret,
    ...passed,
  };
}

async function startService(target: Target, cursorSecret: string, options: { workers?: number; profileDir?: string } = {}): Promise<Server> {
  const workers = options.workers ?? 1;
  const service: RunningService = await spawnService({
    databaseUrl: target.url,
    env: serviceEnv(cursorSecret),
    args: workers > 1 ? ['serve', '--no-bootstrap-key', '--workers', String(workers)] : ['serve', '--no-bootstrap-key'],
    commandPrefix: pinned(workers > 1 ? SETTINGS.workersCpus : SETTINGS.serverCpus),
    nodeArgs: options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [],
    startTimeoutMs: 60_000,
  });
  const release = onCleanup(`stop the service pid ${service.process.pid}`, async () => void (await service.stop('SIGTERM', 30_000).catch(() => undefined)));
  if (workers > 1) await waitForListeningProcesses(service, workers, 60_000);
  // From here the log lines are only drained: kept and parsed, they cost wrk's core (and a slow
  // reader stalls the server's synchronous writes), which showed as p99 spikes of 50–90 ms.
  service.dropOutput();
  const pid = service.process.pid!;
  // Read once: the workers stay (a crashed one would be replaced, and its CPU lost from the figures).
  const processes = workers > 1 ? processTree(pid) : [pid];
  return {
    label: workers > 1 ? `service, ${workers} workers` : 'service',
    baseUrl: service.baseUrl,
    pids: () => processes,
    target,
    async stop() {
      const result = await service.stop('SIGTERM', 30_000);
      await release();
      return result.code;
    },
  };
}

async function startBaseline(pageFile: string): Promise<Server> {
  const [command, ...args] = [...pinned(SETTINGS.serverCpus), process.execPath, BASELINE_SERVER, pageFile];
  const child = spawn(command!, args, { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const owned = ownChild(child, 'baseline server');
  const port = await new Promise<number>((done, fail) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /listening on (\d+)/.exec(text);
      if (match) done(Number(match[1]));
    });
    void owned.exited.then((code) => fail(new Error(`the baseline server exited with code ${code} before listening`)));
  });
  return {
    label: 'baseline',
    baseUrl: `http://127.0.0.1:${port}`,
    pids: () => [child.pid!],
    async stop() {
      await owned.stop();
      return owned.exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoadSpec {
  mode: 'fixed' | 'ids' | 'mix';
  method: string;
  /** `{id}` is replaced by ids of idRange in mode `ids`. */
  path: string;
  body?: string;
  contentType?: string;
  authorization?: string;
  idRange?: { first: number; last: number };
  /** The ids of the warm-up, when a request uses its id up (an order takes its pet); idRange otherwise. */
  warmupIdRange?: { first: number; last: number };
  /** Mode `mix`: one request in `every` is this write; the others GET `path`. */
  write?: { method: string; path: string; body: string; every: number };
}

interface LoadResult {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  non2xx: number;
  errors: number;
}

function wrk(baseUrl: string, spec: LoadSpec, seconds: number): Promise<LoadResult> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_MODE: spec.mode,
    BENCH_METHOD: spec.method,
    BENCH_PATH: spec.path,
    BENCH_BODY: spec.body ?? '',
    BENCH_CONTENT_TYPE: spec.contentType ?? 'application/json',
    BENCH_AUTHORIZATION: spec.authorization ?? '',
    BENCH_ID_FIRST: String(spec.idRange?.first ?? 1),
    BENCH_ID_LAST: String(spec.idRange?.last ?? 1),
    BENCH_THREADS: String(SETTINGS.wrkThreads),
    BENCH_WRITE_METHOD: spec.write?.method ?? '',
    BENCH_WRITE_PATH: spec.write?.path ?? '',
    BENCH_WRITE_BODY: spec.write?.body ?? '',
    BENCH_WRITE_EVERY: String(spec.write?.every ?? 20),
  };
  const [command, ...args] = [
    ...pinned(SETTINGS.clientCpus),
    'wrk',
    `-t${SETTINGS.wrkThreads}`,
    `-c${Math.max(SETTINGS.connections, SETTINGS.wrkThreads)}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    WRK_SCRIPT,
    baseUrl,
  ];
  const child = spawn(command!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const owned = ownChild(child, 'wrk');
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return owned.exited.then(async (code) => {
    await owned.stop();
    const line = stdout.split('\n').find((text) => text.startsWith('BENCH_JSON '));
    if (code !== 0 || !line) throw new Error(`wrk exited with code ${code} without its figures:\n${stdout}\n${stderr}`);
    const figures = JSON.parse(line.slice('BENCH_JSON '.length)) as Record<string, number>;
    return {
      requests: figures.requests!,
      seconds: figures.durationUs! / 1e6,
      p50Ms: figures.p50Us! / 1000,
      p99Ms: figures.p99Us! / 1000,
      p999Ms: figures.p999Us! / 1000,
      non2xx: figures.non2xx!,
      errors: figures.connectErrors! + figures.readErrors! + figures.writeErrors! + figures.timeouts!,
    };
  });
}

function cannon(baseUrl: string, spec: LoadSpec, seconds: number): Promise<LoadResult> {
  const headers: Record<string, string> = {};
  if (spec.authorization) headers.authorization = spec.authorization;
  if (spec.body !== undefined || spec.write) headers['content-type'] = spec.contentType ?? 'application/json';
  let next = 0;
  const nextId = () => {
    const { first, last } = spec.idRange ?? { first: 1, last: 1 };
    return String(first + (next++ % (last - first + 1)));
  };
  const request: autocannon.Request = {
    method: spec.method as autocannon.Request['method'],
    path: spec.path,
    headers,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    setupRequest: (req) => {
      if (spec.mode === 'ids') {
        const id = nextId();
        return { ...req, path: spec.path.replaceAll('{id}', id), ...(spec.body === undefined ? {} : { body: spec.body.replaceAll('{id}', id) }) };
      }
      if (spec.mode === 'mix' && spec.write && ++next % spec.write.every === 0) {
        return { ...req, method: spec.write.method as autocannon.Request['method'], path: spec.write.path, body: spec.write.body };
      }
      return req;
    },
  };
  return new Promise((done, fail) => {
    const running: { instance?: autocannon.Instance } = {};
    const release = onCleanup('stop autocannon', async () => running.instance?.stop());
    running.instance = autocannon(
      { url: baseUrl, connections: SETTINGS.connections, pipelining: 1, duration: seconds, timeout: 10, requests: [request] },
      (error: unknown, result: autocannon.Result) => {
        void release();
        if (error) return fail(error instanceof Error ? error : new Error(String(error)));
        done({
          requests: result['2xx'] + result.non2xx,
          seconds: result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          p999Ms: result.latency.p99_9,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      },
    );
  });
}

const load = (baseUrl: string, spec: LoadSpec, seconds: number) => (USE_WRK ? wrk : cannon)(baseUrl, spec, seconds);

/** One measured run: the load, the server's CPU and memory, and the database backends' CPU. */
async function measureRun(server: Server, spec: LoadSpec): Promise<RunFigures> {
  if (SETTINGS.warmupSeconds > 0) await load(server.baseUrl, { ...spec, idRange: spec.warmupIdRange ?? spec.idRange }, SETTINGS.warmupSeconds);
  const pids = server.pids();
  const cpuBefore = pids.map((pid) => processCpuSeconds(pid));
  const dbBefore = server.target ? await backendCpu(server.target) : undefined;
  let peakRss = 0;
  const sampleRss = () => {
    const total = server.pids().reduce((sum, pid) => sum + (residentMb(pid, 'VmRSS') ?? 0), 0);
    peakRss = Math.max(peakRss, total);
  };
  // Reading a small /proc file five times a second from the client core costs next to nothing.
  const sampler = setInterval(sampleRss, 200);
  let result: LoadResult;
  try {
    result = await load(server.baseUrl, spec, SETTINGS.seconds);
  } finally {
    clearInterval(sampler);
  }
  sampleRss();
  const cpuAfter = pids.map((pid) => processCpuSeconds(pid));
  const dbAfter = server.target ? await backendCpu(server.target) : undefined;
  const cpuSeconds = cpuBefore.every((v) => v !== undefined) && cpuAfter.every((v) => v !== undefined)
    ? cpuAfter.reduce((sum, after, i) => sum! + after! - cpuBefore[i]!, 0)!
    : undefined;
  let dbSeconds: number | undefined;
  if (dbAfter && dbBefore && dbAfter.size > 0) {
    // A backend that started during the run counts from zero; one that ended during it is lost (rare: the pool keeps them).
    dbSeconds = [...dbAfter.entries()].reduce((sum, [pid, after]) => sum + after - (dbBefore.get(pid) ?? 0), 0);
  }
  const perRequest = (seconds: number | undefined) => (seconds === undefined || result.requests === 0 ? undefined : (seconds * 1e6) / result.requests);
  const figures: RunFigures = {
    requests: result.requests,
    reqPerSec: result.requests / result.seconds,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    p999Ms: result.p999Ms,
    non2xx: result.non2xx,
    errors: result.errors,
    peakRssMb: peakRss,
  };
  const serverCpu = perRequest(cpuSeconds);
  if (serverCpu !== undefined) figures.serverCpuUsPerRequest = serverCpu;
  const dbCpu = perRequest(dbSeconds);
  if (dbCpu !== undefined) figures.databaseCpuUsPerRequest = dbCpu;
  return figures;
}

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  name: string;
  description: string;
  /** `seeded`: on the seeded table; `big`: after it was grown to BENCH_BIG_PETS; `workers`: `serve --workers 2`. */
  phase: 'seeded' | 'big' | 'workers';
  expectedStatus: number;
  spec: LoadSpec;
  /** Before each service run (unmeasured): for example, seed the pets the orders will take. */
  beforeServiceRun?: () => Promise<void>;
}

interface Context {
  target: Target;
  key: string;
  seeded: { first: number; last: number };
  cursorSecret: string;
}

function scenarios(context: Context): Scenario[] {
  const authorization = `Bearer ${context.key}`;
  const { seeded } = context;
  const deepAfterId = Math.floor(SETTINGS.bigPets * 0.9);
  const deepCursor = petCursors(context.cursorSecret).encode(deepAfterId, petCursorFilters({}));
  const createBody = JSON.stringify({ name: 'Bench pet', categoryId: 3, status: 'available' });
  const order: LoadSpec = { mode: 'ids', method: 'POST', path: '/v1/store/orders', body: '{"petId":{id}}', authorization, idRange: { first: 1, last: 1 } };
  // Each order takes an available pet: before each service run, as many as it could place at most
  // (a generous guess of 5,000 orders/s) are seeded, one block for the warm-up and one for the run.
  // More than the service can order in a second (about 8,000 on SQLite here), so no run runs out of pets.
  const orderPets = SETTINGS.orderPets || (SETTINGS.seconds + 1) * ORDER_PETS_PER_SECOND;
  const warmupOrderPets = SETTINGS.warmupSeconds === 0 ? 0 : SETTINGS.orderPets || (SETTINGS.warmupSeconds + 1) * ORDER_PETS_PER_SECOND;
  const list20: LoadSpec = { mode: 'fixed', method: 'GET', path: '/v1/pets?limit=20', authorization };
  return [
    { name: 'list20', phase: 'seeded', expectedStatus: 200, spec: list20, description: `GET /v1/pets?limit=20 at ${SETTINGS.seedPets.toLocaleString('en')} pets` },
    { name: 'list100', phase: 'seeded', expectedStatus: 200, spec: { ...list20, path: '/v1/pets?limit=100' }, description: 'GET /v1/pets?limit=100' },
    {
      name: 'list-filter',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, path: '/v1/pets?limit=20&status=available&categoryId=3' },
      description: 'GET /v1/pets?limit=20&status=available&categoryId=3 (1 pet in 30 matches)',
    },
    {
      name: 'list-name',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, path: '/v1/pets?limit=20&name=k' },
      description: 'GET /v1/pets?limit=20&name=k: a name prefix matching 1 pet in 26, sorted by id per page',
    },
    {
      name: 'getPet',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { mode: 'ids', method: 'GET', path: '/v1/pets/{id}', authorization, idRange: seeded },
      description: 'GET /v1/pets/{id} (deprecated getPet), ids cycling over the seeded pets',
    },
    {
      name: 'list-id',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { mode: 'ids', method: 'GET', path: '/v1/pets?id={id}', authorization, idRange: seeded },
      description: 'GET /v1/pets?id={id} (getPet’s replacement), ids cycling over the seeded pets',
    },
    {
      name: 'patch',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { mode: 'ids', method: 'PATCH', path: '/v1/pets/{id}', body: '{"name":"Renamed {id}"}', contentType: 'application/merge-patch+json', authorization, idRange: seeded },
      description: 'PATCH /v1/pets/{id} changing the name (merge patch, no If-Match), ids cycling over the seeded pets',
    },
    {
      name: 'createPet',
      phase: 'seeded',
      expectedStatus: 201,
      spec: { mode: 'fixed', method: 'POST', path: '/v1/pets', body: createBody, authorization },
      description: 'POST /v1/pets (no Idempotency-Key)',
    },
    {
      name: 'placeOrder',
      phase: 'seeded',
      expectedStatus: 201,
      spec: order,
      description: `POST /v1/store/orders, each order for another available pet (${orderPets.toLocaleString('en')} seeded straight into the table before each service run)`,
      async beforeServiceRun() {
        if (warmupOrderPets > 0) order.warmupIdRange = await bulkInsertPets(context.target, warmupOrderPets, 'available');
        order.idRange = await bulkInsertPets(context.target, orderPets, 'available');
      },
    },
    {
      name: 'mix-95-5',
      phase: 'seeded',
      expectedStatus: 200,
      spec: { ...list20, mode: 'mix', write: { method: 'POST', path: '/v1/pets', body: createBody, every: 20 } },
      description: '95 % GET /v1/pets?limit=20, 5 % POST /v1/pets',
    },
    {
      name: 'list20-1m',
      phase: 'big',
      expectedStatus: 200,
      spec: list20,
      description: `GET /v1/pets?limit=20 with ${SETTINGS.bigPets.toLocaleString('en')} pets in the table`,
    },
    {
      name: 'deep-cursor-1m',
      phase: 'big',
      expectedStatus: 200,
      spec: { ...list20, path: `/v1/pets?limit=20&cursor=${deepCursor}` },
      description: `GET /v1/pets?limit=20&cursor=… after id ${deepAfterId.toLocaleString('en')} of ${SETTINGS.bigPets.toLocaleString('en')} (a signed cursor made with the service’s own codec)`,
    },
    {
      name: 'list20-workers2',
      phase: 'workers',
      expectedStatus: 200,
      spec: list20,
      description: `GET /v1/pets?limit=20 against \`serve --workers 2\` (pinned to CPUs ${HAS_TASKSET ? SETTINGS.workersCpus : 'none'}; CPU summed over the primary and its workers), on the table as the run left it`,
    },
  ];
}

/** One request first, so a wrong scenario fails at once instead of measuring errors. */
async function preflight(baseUrl: string, scenario: Scenario): Promise<void> {
  const { spec } = scenario;
  // The last id of the range: the runs start at the first, and an order uses its pet up.
  const id = String(spec.idRange?.last ?? 1);
  const headers: Record<string, string> = {};
  if (spec.authorization) headers.authorization = spec.authorization;
  if (spec.body !== undefined) headers['content-type'] = spec.contentType ?? 'application/json';
  const response = await fetch(baseUrl + spec.path.replaceAll('{id}', id), {
    method: spec.method,
    headers,
    ...(spec.body === undefined ? {} : { body: spec.body.replaceAll('{id}', id) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== scenario.expectedStatus) {
    throw new Error(`${scenario.name}: ${spec.method} ${spec.path} answered ${response.status}, not ${scenario.expectedStatus}: ${text.slice(0, 300)}`);
  }
}

async function runScenario(database: string, scenario: Scenario, baseline: Server, service: Server): Promise<ScenarioResult> {
  // A scenario preparing its runs is checked after its first preparation, which comes after a
  // baseline run, when the service has long finished the previous scenario's last requests.
  if (!scenario.beforeServiceRun) await preflight(service.baseUrl, scenario);
  const rounds: ScenarioResult['rounds'] = { service: [], baseline: [] };
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    // Interleaved: a slow spell of the machine hits both sides instead of one.
    rounds.baseline.push(await measureRun(baseline, scenario.spec));
    if (scenario.beforeServiceRun) {
      await scenario.beforeServiceRun();
      if (round === 1) await preflight(service.baseUrl, scenario);
    }
    rounds.service.push(await measureRun(service, scenario.spec));
    const s = rounds.service.at(-1)!;
    const b = rounds.baseline.at(-1)!;
    log(
      `  ${database} ${scenario.name} round ${round}: service ${Math.round(s.reqPerSec)} req/s, ${fmtUs(totalCpuUsPerRequest(s))} µs/req, p99 ${s.p99Ms.toFixed(2)} ms; ` +
        `baseline ${Math.round(b.reqPerSec)} req/s, ${fmtUs(b.serverCpuUsPerRequest)} µs/req`,
    );
  }
  const service_ = medianFigures(rounds.service);
  const baseline_ = medianFigures(rounds.baseline);
  const problems: string[] = [];
  // 409s of placeOrder would mean the pets ran out; any status ≥ 400 or error is a failed check.
  if (service_.non2xx > 0) problems.push(`${service_.non2xx} responses ≥ 400`);
  if (service_.errors > 0) problems.push(`${service_.errors} socket errors/timeouts`);
  if (baseline_.non2xx > 0 || baseline_.errors > 0) problems.push(`baseline: ${baseline_.non2xx} ≥ 400, ${baseline_.errors} errors`);
  return { database, scenario: scenario.name, description: scenario.description, service: service_, baseline: baseline_, rounds, ...ratios(service_, baseline_), problems };
}

function fmtUs(value: number | undefined): string {
  return value === undefined ? '–' : value.toFixed(0);
}

// ---------------------------------------------------------------------------------------------

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
  // The baseline answers the service's own first page, byte for byte.
  const page = await fetch(`${service.baseUrl}/v1/pets?limit=20`, { headers: { authorization: `Bearer ${key}` } });
  if (page.status !== 200) throw new Error(`GET /v1/pets?limit=20 answered ${page.status}`);
  const pageFile = join(mkdtempSync(join(tmpdir(), 'animal-store-bench-page-')), 'page.json');
  onCleanup(`remove ${pageFile}`, async () => rmSync(dirname(pageFile), { recursive: true, force: true }), () => rmSync(dirname(pageFile), { recursive: true, force: true }));
  writeFileSync(pageFile, Buffer.from(await page.arrayBuffer()));
  const baseline = await startBaseline(pageFile);

  for (const scenario of chosen.filter((s) => s.phase === 'seeded')) {
    log(`${target.label}: ${scenario.name}`);
    results.push(await runScenario(target.label, scenario, baseline, service));
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
      results.push(await runScenario(target.label, scenario, baseline, service));
    }
  }
  const exitCode = await service.stop();
  if (exitCode !== 0) throw new Error(`${target.label}: the service exited with code ${exitCode} after SIGTERM (expected 0)`);
  for (const scenario of chosen.filter((s) => s.phase === 'workers')) {
    log(`${target.label}: ${scenario.name}`);
    service = await startService(target, cursorSecret, { workers: 2, profileDir });
    results.push(await runScenario(target.label, scenario, baseline, service));
    const workersExit = await service.stop();
    if (workersExit !== 0) throw new Error(`${target.label}: the service with 2 workers exited with code ${workersExit} after SIGTERM`);
  }
  await baseline.stop();
  return results;
}

function comparisons(results: ScenarioResult[]): Comparison[] {
  const out: Comparison[] = [];
  for (const database of new Set(results.map((r) => r.database))) {
    const find = (name: string) => results.find((r) => r.database === database && r.scenario === name);
    const cpu = (r: ScenarioResult | undefined) => (r ? totalCpuUsPerRequest(r.service) : undefined);
    const small = find('list20');
    const big = find('list20-1m');
    if (small && big) {
      const a = cpu(big);
      const b = cpu(small);
      out.push({ database, label: 'list20 at 1,000,000 vs 10,000 pets', meaning: 'CPU µs/req at the big table ÷ at the seeded one (target ≤ 1.2)', ...(a && b ? { value: a / b } : {}) });
    }
    const one = big ?? small;
    const two = find('list20-workers2');
    if (one && two) {
      out.push({ database, label: `list20, 2 workers vs 1 (${one.scenario})`, meaning: 'req/s with 2 workers ÷ req/s with 1', value: two.service.reqPerSec / one.service.reqPerSec });
      const a = cpu(two);
      const b = cpu(one);
      out.push({ database, label: `list20, 2 workers vs 1 (${one.scenario})`, meaning: 'CPU µs/req with 2 workers ÷ with 1', ...(a && b ? { value: a / b } : {}) });
    }
  }
  return out;
}

function gitCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}

async function printProfiles(dir: string, label: string): Promise<void> {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const summary = formatSummary(summariseProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, 25));
    const saved = join(RESULTS_DIR, `profile-${SETTINGS.profile}-${label}-${file.replace(/\.cpuprofile$/, '')}.md`);
    writeFileSync(saved, `# Profile of ${SETTINGS.profile} on ${label} (${file})\n\n${summary}`);
    process.stdout.write(`\n## Profile of ${SETTINGS.profile} on ${label} (${file}; also in ${saved})\n\n${summary}`);
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  // Read now: dist/ was built from the working tree a moment ago, and others may commit meanwhile.
  const commit = gitCommit();
  pinThisProcess();
  const all = scenarios({ target: undefined as never, key: '', seeded: { first: 1, last: 1 }, cursorSecret: 'x'.repeat(32) }).map((s) => s.name);
  const requested = listFromEnv('BENCH_SCENARIOS') ?? (SETTINGS.profile ? [SETTINGS.profile] : all);
  const unknown = requested.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; the scenarios are ${all.join(', ')}`);
  if (SETTINGS.profile && !all.includes(SETTINGS.profile)) throw new Error(`BENCH_PROFILE=${SETTINGS.profile} is no scenario; the scenarios are ${all.join(', ')}`);
  const selected = new Set(requested);
  mkdirSync(RESULTS_DIR, { recursive: true });

  const results: ScenarioResult[] = [];
  const targets: (() => Promise<Target>)[] = [sqliteTarget];
  if (POSTGRES_URL) targets.push(() => postgresTarget(POSTGRES_URL));
  else log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL to include it');
  const descriptions: string[] = [];
  for (const makeTarget of targets) {
    const target = await makeTarget();
    descriptions.push(`${target.label}: ${target.description}`);
    const profileDir = SETTINGS.profile ? mkdtempSync(join(tmpdir(), 'animal-store-bench-profile-')) : undefined;
    if (profileDir) onCleanup(`remove ${profileDir}`, async () => rmSync(profileDir, { recursive: true, force: true }));
    results.push(...(await benchTarget(target, selected, profileDir)));
    if (profileDir) await printProfiles(profileDir, target.label);
    await cleanupAll();
  }

  const cpu = cpus();
  const report: BenchReport = {
    date: new Date().toISOString(),
    commit,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform} ${process.arch}, Node ${process.version}`,
    loadGenerator: USE_WRK
      ? `wrk -t${SETTINGS.wrkThreads} -c${SETTINGS.connections} -d${SETTINGS.seconds}s (bench/wrk/scenario.lua)`
      : `autocannon, ${SETTINGS.connections} connections, ${SETTINGS.seconds} s (wrk not installed)`,
    settings: {
      BENCH_SECONDS: SETTINGS.seconds,
      BENCH_WARMUP_SECONDS: SETTINGS.warmupSeconds,
      BENCH_CONNECTIONS: SETTINGS.connections,
      BENCH_ROUNDS: SETTINGS.rounds,
      BENCH_SEED_PETS: SETTINGS.seedPets,
      BENCH_BIG_PETS: SETTINGS.bigPets,
    },
    notes: [
      HAS_TASKSET
        ? `Pinning (taskset): servers (service and baseline) on CPU ${SETTINGS.serverCpus}, \`--workers 2\` on CPUs ${SETTINGS.workersCpus}, the load generator and this process on CPU ${SETTINGS.clientCpus}; PostgreSQL is not pinned.`
        : 'Pinning: none (taskset missing or a single CPU): server and load generator share the CPUs.',
      `Service: LOG_LEVEL=info, RATE_LIMIT_PER_MINUTE=${SETTINGS.rateLimitPerMinute} (the limiter runs, the load never reaches it), CURSOR_SECRET set by the bench.`,
      `Each figure is the median of ${SETTINGS.rounds} round(s); in each round the baseline (a bare node:http server answering the service's own 20-pet page, prebuilt) runs first, then the service, each after ${SETTINGS.warmupSeconds} s of unmeasured warm-up. Counts of ≥400 responses and errors are summed over the rounds.`,
      'CPU µs/req: user+system CPU of the server processes (from /proc/<pid>/stat) over the run ÷ responses; on PostgreSQL "+ N db" adds the CPU of the backends serving the service (found by application_name). CPU ratio = baseline µs/req ÷ service µs/req (database included); throughput ratio = service req/s ÷ baseline req/s.',
      'Peak RSS: the largest VmRSS sampled every 200 ms during the measured run, summed over the server processes.',
      ...descriptions,
    ],
    results,
    comparisons: comparisons(results),
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
  if (!interrupted) log(`failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await cleanupAll();
}
if (!interrupted) {
  process.exitCode = exitCode;
  // Nothing should keep the event loop alive now; if something does, do not hang.
  setTimeout(() => process.exit(exitCode), 2000).unref();
}
