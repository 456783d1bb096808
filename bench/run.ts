/**
 * Load benchmark of the real service: `npm run bench` (which builds dist/ first).
 *
 * For each database (SQLite always; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * is set) it starts `node dist/cli.js serve` as a child process on 127.0.0.1 with an empty
 * database, makes a key with `keys create`, seeds pets through the API, then drives five
 * scenarios with autocannon and prints a Markdown table (also written to bench/results/latest.md).
 *
 * Everything it starts or creates (the server, the temporary folder, the PostgreSQL schema) is
 * removed again, also when a step fails or the run is interrupted.
 */
import autocannon from 'autocannon';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'latest.md');
const HOST = '127.0.0.1';

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

const SETTINGS = {
  /** Measured seconds per scenario. */
  seconds: intFromEnv('BENCH_SECONDS', 10, 1, 120),
  /** Unmeasured seconds before each scenario (JIT, connection set-up, caches). */
  warmupSeconds: intFromEnv('BENCH_WARMUP_SECONDS', 1, 0, 30),
  connections: intFromEnv('BENCH_CONNECTIONS', 50, 1, 1000),
  seedPets: intFromEnv('BENCH_SEED_PETS', 1000, 1, 100_000),
  /**
   * The service's per-key (and per-address) limit. By default the largest value it accepts, so the
   * limiter runs and its cost is measured, but it never answers 429 to the single bench key.
   */
  rateLimitPerMinute: intFromEnv('BENCH_RATE_LIMIT_PER_MINUTE', 10_000_000, 0, 10_000_000),
};
const POSTGRES_URL = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim() || undefined;

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

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------
// Databases

interface Target {
  label: string;
  /** DATABASE_URL for the service. */
  url: string;
  /** What to print: no password, no temporary path noise. */
  description: string;
}

function sqliteTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
  onCleanup(
    `remove ${dir}`,
    async () => rmSync(dir, { recursive: true, force: true }),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  return { label: 'SQLite', url: `sqlite:${join(dir, 'bench.db')}`, description: 'SQLite file in a fresh temporary folder (WAL, synchronous=NORMAL)' };
}

async function withPgClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  if (!/^postgres(ql)?:\/\//i.test(adminUrl)) throw new Error('BENCH_DATABASE_URL / TEST_DATABASE_URL must be a postgres:// URL');
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await withPgClient(adminUrl, (client) => client.query(`create schema ${schema}`));
  onCleanup(`drop schema ${schema}`, async () => {
    await withPgClient(adminUrl, (client) => client.query(`drop schema if exists ${schema} cascade`));
    log(`dropped schema ${schema}`);
  });
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const where = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  return { label: 'PostgreSQL', url: url.toString(), description: `PostgreSQL ${where}, fresh schema ${schema} (dropped afterwards)` };
}

async function postgresVersion(adminUrl: string): Promise<string> {
  try {
    return await withPgClient(adminUrl, async (client) => String((await client.query('show server_version')).rows[0]?.server_version ?? '?'));
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------------------------------------
// The service as a child process

interface RunningServer {
  baseUrl: string;
  pid: number;
  /** Sends SIGTERM, waits for the exit (SIGKILL after a grace period) and returns the exit code. */
  stop(): Promise<number | null>;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', fail);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? done(port) : fail(new Error('could not read a free port'))));
    });
  });
}

function serviceEnv(databaseUrl: string, port = 0): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST,
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    SHUTDOWN_TIMEOUT_MS: '5000',
    RATE_LIMIT_PER_MINUTE: String(SETTINGS.rateLimitPerMinute),
  };
}

/** Keeps the last few kilobytes a child wrote, to show when it fails. */
function tail(stream: NodeJS.ReadableStream | null, limit = 8192): () => string {
  let text = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    text = (text + chunk).slice(-limit);
  });
  return () => text;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

async function startServer(databaseUrl: string): Promise<RunningServer> {
  // The port is chosen here and handed over, since with LOG_LEVEL=warn the service does not log it.
  // Another process may take it in between: then try again with another port (a few times only).
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'serve', '--no-bootstrap-key'], {
      cwd: ROOT,
      env: serviceEnv(databaseUrl, port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [tail(child.stdout), tail(child.stderr)];
    const childOutput = () => output.map((read) => read()).join('').trim();
    let exitCode: number | null | undefined;
    const exit = exited(child).then((code) => (exitCode = code));

    const stop = async (): Promise<number | null> => {
      if (exitCode !== undefined) return exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      try {
        await exit;
      } finally {
        clearTimeout(timer);
      }
      return exitCode ?? null;
    };
    const release = onCleanup(`stop server pid ${child.pid}`, async () => void (await stop()), () => child.kill('SIGKILL'));

    const baseUrl = `http://${HOST}:${port}`;
    const deadline = Date.now() + 30_000;
    while (exitCode === undefined && Date.now() < deadline) {
      try {
        const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
        await response.arrayBuffer();
        if (response.status === 200) {
          let stopped: Promise<number | null> | undefined;
          return {
            baseUrl,
            pid: child.pid!,
            stop: () => (stopped ??= release().then(() => exitCode ?? null)),
          };
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }

    await release();
    const text = childOutput();
    if (/EADDRINUSE/.test(text) && attempt < 3) {
      log(`port ${port} was taken meanwhile; trying another`);
      continue;
    }
    throw new Error(
      `the service did not answer GET /healthz with 200 ${exitCode === undefined ? 'within 30 s' : `(it exited with code ${exitCode})`}` +
        (text ? `; its output:\n${text}` : ''),
    );
  }
}

function createKey(databaseUrl: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [CLI, 'keys', 'create', '--name', 'bench'],
      { cwd: ROOT, env: serviceEnv(databaseUrl), timeout: 30_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return fail(new Error(`keys create failed: ${error.message}\n${stderr}`));
        const key = stdout.trim().split('\n').at(-1)?.trim();
        if (!key) return fail(new Error(`keys create printed no key; stderr:\n${stderr}`));
        done(key);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Seeding

const STATUSES = ['available', 'pending', 'sold'] as const;

async function seedPets(baseUrl: string, key: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const response = await fetch(`${baseUrl}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Seed pet ${n + 1}`, categoryId: (n % 7) + 1, status: STATUSES[n % STATUSES.length] }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json()) as { id?: unknown };
      if (response.status !== 201 || typeof body.id !== 'number') {
        throw new Error(`seeding: POST /v1/pets answered ${response.status} ${JSON.stringify(body)}`);
      }
      ids.push(body.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(10, count) }, worker));
  return ids.sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// CPU accounting: client and server share the machine, so how much CPU each request costs the
// server tells more than throughput alone (and whether the server or the client was the limit).

let clockTicksPerSecond: number | undefined;

/** CPU seconds (user + system) a process has used so far, from /proc; undefined off Linux. */
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

/** Machine-wide CPU counters from /proc/stat: total, idle (with I/O wait) and steal (time the hypervisor gave to other guests). */
function machineCpuTicks(): { total: number; idle: number; steal: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (ticks.length < 8 || ticks.some((n) => !Number.isFinite(n))) return undefined;
    return { total: ticks.reduce((a, b) => a + b, 0), idle: ticks[3]! + ticks[4]!, steal: ticks[7]! };
  } catch {
    return undefined;
  }
}

interface CpuUse {
  /** Server CPU time per response, in microseconds. */
  serverUsPerRequest?: number;
  /** Server CPU time over wall time: 1 means one core fully busy. */
  serverCores?: number;
  /** The same for this process (autocannon). */
  clientCores: number;
  /** Share of the machine's CPU time stolen by the hypervisor during the window (virtual machines). */
  stealShare?: number;
  /** Cores kept busy by everything else on the machine (other processes) during the window. */
  otherCores?: number;
}

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The one status every response must have. */
  expectedStatus: number;
}

function scenarios(key: string, petId: number): Scenario[] {
  const auth = { authorization: `Bearer ${key}` };
  return [
    { name: 'List pets, first page', method: 'GET', path: '/v1/pets?limit=20', headers: auth, expectedStatus: 200 },
    { name: 'List available pets, 100 per page', method: 'GET', path: '/v1/pets?limit=100&status=available', headers: auth, expectedStatus: 200 },
    {
      name: 'Create a pet',
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench pet', categoryId: 3, status: 'pending' }),
      expectedStatus: 201,
    },
    { name: 'Fetch one pet (deprecated getPet)', method: 'GET', path: `/v1/pets/${petId}`, headers: auth, expectedStatus: 200 },
    { name: 'List pets without a key', method: 'GET', path: '/v1/pets', headers: {}, expectedStatus: 401 },
  ];
}

interface Measurement {
  scenario: Scenario;
  result: autocannon.Result;
  statuses: Record<string, number>;
  cpu: CpuUse;
  problems: string[];
}

/** One request first, so a scenario that is wrong fails at once instead of measuring errors. */
async function preflight(baseUrl: string, scenario: Scenario): Promise<void> {
  const response = await fetch(baseUrl + scenario.path, {
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== scenario.expectedStatus) {
    throw new Error(`${scenario.method} ${scenario.path} answered ${response.status}, not ${scenario.expectedStatus}: ${text.slice(0, 300)}`);
  }
}

function cannon(baseUrl: string, scenario: Scenario, seconds: number): Promise<autocannon.Result> {
  return new Promise((done, fail) => {
    // An interrupt must not leave the cannon firing while the server is being stopped.
    const running: { instance?: autocannon.Instance } = {};
    const release = onCleanup('stop autocannon', async () => running.instance?.stop());
    running.instance = autocannon(
      {
        url: baseUrl + scenario.path,
        method: scenario.method,
        headers: scenario.headers,
        ...(scenario.body === undefined ? {} : { body: scenario.body }),
        connections: SETTINGS.connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
      },
      (error: unknown, result: autocannon.Result) => {
        void release();
        if (error) fail(error instanceof Error ? error : new Error(String(error)));
        else done(result);
      },
    );
  });
}

async function measure(baseUrl: string, serverPid: number, scenario: Scenario): Promise<Measurement> {
  await preflight(baseUrl, scenario);
  if (SETTINGS.warmupSeconds > 0) await cannon(baseUrl, scenario, SETTINGS.warmupSeconds);
  const serverBefore = processCpuSeconds(serverPid);
  const clientBefore = process.cpuUsage();
  const machineBefore = machineCpuTicks();
  const wallBefore = performance.now();
  const result = await cannon(baseUrl, scenario, SETTINGS.seconds);
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const clientUsage = process.cpuUsage(clientBefore);
  const serverAfter = processCpuSeconds(serverPid);
  const machineAfter = machineCpuTicks();
  const responses = result['2xx'] + result.non2xx;
  const serverSeconds = serverBefore === undefined || serverAfter === undefined ? undefined : serverAfter - serverBefore;
  const cpu: CpuUse = {
    clientCores: (clientUsage.user + clientUsage.system) / 1e6 / wallSeconds,
    ...(serverSeconds === undefined ? {} : { serverCores: serverSeconds / wallSeconds }),
    ...(serverSeconds === undefined || responses === 0 ? {} : { serverUsPerRequest: (serverSeconds * 1e6) / responses }),
  };
  if (machineBefore && machineAfter && machineAfter.total > machineBefore.total) {
    const total = machineAfter.total - machineBefore.total;
    const steal = machineAfter.steal - machineBefore.steal;
    const busyCores = ((total - (machineAfter.idle - machineBefore.idle) - steal) / total) * cpus().length;
    cpu.stealShare = steal / total;
    if (cpu.serverCores !== undefined) cpu.otherCores = Math.max(0, busyCores - cpu.serverCores - cpu.clientCores);
  }

  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  const problems: string[] = [];
  const unexpected = Object.entries(statuses).filter(([code, count]) => code !== String(scenario.expectedStatus) && count > 0);
  if (unexpected.length > 0) problems.push(`unexpected statuses ${unexpected.map(([code, count]) => `${code}×${count}`).join(', ')}`);
  if (result.errors > 0) problems.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  if ((statuses[String(scenario.expectedStatus)] ?? 0) === 0) problems.push('no response with the expected status');
  return { scenario, result, statuses, cpu, problems };
}

interface TargetReport {
  target: Target;
  measurements: Measurement[];
  seeded: number;
  serverExitCode: number | null;
}

async function benchTarget(target: Target): Promise<TargetReport> {
  log(`${target.label}: starting the service`);
  const server = await startServer(target.url);
  const key = await createKey(target.url);
  log(`${target.label}: seeding ${SETTINGS.seedPets} pets`);
  const ids = await seedPets(server.baseUrl, key, SETTINGS.seedPets);
  const petId = ids[Math.floor(ids.length / 2)]!;

  const measurements: Measurement[] = [];
  for (const [index, scenario] of scenarios(key, petId).entries()) {
    log(`${target.label}: (${index + 1}) ${scenario.method} ${scenario.path} — ${SETTINGS.warmupSeconds} s warm-up + ${SETTINGS.seconds} s`);
    const measurement = await measure(server.baseUrl, server.pid, scenario);
    const { result } = measurement;
    log(
      `  ${fmt(result.requests.mean, 0)} req/s, p50 ${ms(result.latency.p50)} ms, p99 ${ms(result.latency.p99)} ms, ` +
        `server ${fmt(measurement.cpu.serverCores ?? NaN)} cores, client ${fmt(measurement.cpu.clientCores)} cores, ` +
        `other ${fmt(measurement.cpu.otherCores ?? NaN)} cores, steal ${fmt((measurement.cpu.stealShare ?? NaN) * 100, 0)} %` +
        (measurement.problems.length ? `; ${measurement.problems.join('; ')}` : ''),
    );
    measurements.push(measurement);
  }

  const serverExitCode = await server.stop();
  if (serverExitCode !== 0) log(`${target.label}: the service exited with code ${serverExitCode} after SIGTERM (expected 0)`);
  return { target, measurements, seeded: ids.length, serverExitCode };
}

// ---------------------------------------------------------------------------------------------
// Report

function fmt(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
}

/** autocannon's latency histogram has 1 ms resolution: percentiles are whole milliseconds. */
function ms(value: number): string {
  return Number.isInteger(value) ? String(value) : fmt(value);
}

function gitDescription(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown';
  }
}

function targetTable(report: TargetReport): string {
  const rows = report.measurements.map(({ scenario, result, statuses, cpu, problems }, index) => {
    const statusText = Object.entries(statuses).map(([code, count]) => `${code}: ${count.toLocaleString('en-US')}`).join(', ') || '–';
    return [
      String(index + 1),
      `${scenario.method} \`${scenario.path}\`${scenario.headers.authorization ? '' : ' (no key)'}`,
      fmt(result.requests.mean, 0),
      ms(result.latency.p50),
      ms(result.latency.p97_5),
      ms(result.latency.p99),
      fmt(result.latency.mean),
      (result['2xx'] + result.non2xx).toLocaleString('en-US'),
      statusText,
      result.non2xx.toLocaleString('en-US'),
      `${result.errors} (${result.timeouts} timeouts)`,
      cpu.serverUsPerRequest === undefined ? '–' : fmt(cpu.serverUsPerRequest, 0),
      `${fmt(cpu.serverCores ?? NaN)} / ${fmt(cpu.clientCores)}`,
      cpu.otherCores === undefined ? '–' : fmt(cpu.otherCores),
      cpu.stealShare === undefined ? '–' : `${fmt(cpu.stealShare * 100, 0)} %`,
      problems.length ? `⚠ ${problems.join('; ')}` : `all ${scenario.expectedStatus}`,
    ];
  });
  const header = [
    '#', 'Scenario', 'Req/s (mean)', 'p50 ms', 'p97.5 ms', 'p99 ms', 'Mean ms', 'Responses', 'Statuses', 'Non-2xx', 'Errors',
    'Server CPU µs/req', 'CPU cores server / client', 'Other load (cores)', 'Steal', 'Check',
  ];
  const align = ['--:', ':--', '--:', '--:', '--:', '--:', '--:', '--:', ':--', '--:', '--:', '--:', '--:', '--:', '--:', ':--'];
  return [header, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function markdown(reports: TargetReport[], extra: { postgresVersion?: string; commit: string }): string {
  const cpu = cpus();
  const lines = [
    '# animal-store load benchmark',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Commit: ${extra.commit} (when the run started, just after the build)`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform} ${process.arch}, Node ${process.version}`,
    '- **Caveat:** client (autocannon, in the bench process) and server (one Node process) share the same machine and its cores, so they compete for CPU; read the figures as relative (scenario against scenario, commit against commit on the same machine), not as the capacity of a production deployment.',
    `- Load: autocannon, ${SETTINGS.connections} connections, no pipelining, ${SETTINGS.seconds} s per scenario after ${SETTINGS.warmupSeconds} s of unmeasured warm-up, scenarios run one after another against one server process.`,
    `- Service: \`node dist/cli.js serve --no-bootstrap-key\`, LOG_LEVEL=warn, RATE_LIMIT_PER_MINUTE=${SETTINGS.rateLimitPerMinute}${SETTINGS.rateLimitPerMinute === 10_000_000 ? ' (the maximum: the limiter runs but never refuses)' : ''}, default pool and key-cache settings; ${SETTINGS.seedPets} pets seeded (statuses cycling available/pending/sold) before scenario 1; scenario 3 adds rows, scenario 4 fetches one seeded id.`,
    '- Req/s is the mean of autocannon’s one-second samples. Latency percentiles are whole milliseconds (autocannon’s histogram resolution) and cover every response, 401s included. Non-2xx is expected only in scenario 5 (401).',
    '- Server CPU µs/req is the service process’s user+system CPU time (from /proc) divided by the responses of the measured window; “CPU cores” is CPU time over wall time for the service and for the bench process (autocannon). A service near 1.0 core is the bottleneck (Node runs JavaScript on one thread); well below 1.0 means it was waiting (on the client, on PostgreSQL, or for a CPU). Other load is the CPU the rest of the machine used meanwhile (other processes, the kernel’s loopback network work, a local PostgreSQL server), and Steal the share of CPU time the hypervisor gave to other guests (both from /proc/stat): when either is high, the figures are depressed and noisy.',
  ];
  for (const report of reports) {
    lines.push('', `## ${report.target.label}`, '', `${report.target.description}${report.target.label === 'PostgreSQL' && extra.postgresVersion ? `, server ${extra.postgresVersion}` : ''}.`, '');
    lines.push(targetTable(report));
    lines.push('', `Service stopped with SIGTERM; exit code ${report.serverExitCode}${report.serverExitCode === 0 ? ' (graceful)' : ' (expected 0)'}.`);
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = Date.now();
  // Read now: dist/ was built from the working tree a moment ago, and others may commit meanwhile.
  const commit = gitDescription();
  const reports: TargetReport[] = [];
  reports.push(await benchTarget(sqliteTarget()));
  await cleanupAll();

  let pgVersion: string | undefined;
  if (POSTGRES_URL) {
    pgVersion = await postgresVersion(POSTGRES_URL);
    reports.push(await benchTarget(await postgresTarget(POSTGRES_URL)));
    await cleanupAll();
  } else {
    log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL to include it');
  }

  const text = markdown(reports, { postgresVersion: pgVersion, commit });
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, text);
  process.stdout.write(text);
  log(`written to ${RESULTS_FILE} after ${Math.round((Date.now() - started) / 1000)} s`);

  const failed = reports.flatMap((r) => r.measurements.filter((m) => m.problems.length > 0).map((m) => `${r.target.label} ${m.scenario.name}`));
  const unclean = reports.filter((r) => r.serverExitCode !== 0).map((r) => r.target.label);
  if (failed.length > 0) log(`FAILED checks: ${failed.join('; ')}`);
  if (unclean.length > 0) log(`the service did not stop cleanly on: ${unclean.join(', ')}`);
  return failed.length > 0 || unclean.length > 0 ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  log(`failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await cleanupAll();
}
if (!interrupted) {
  process.exitCode = exitCode;
  // Nothing should keep the event loop alive now; if something does, do not hang.
  setTimeout(() => process.exit(exitCode), 2000).unref();
}
