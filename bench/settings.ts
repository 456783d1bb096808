/**
 * The bench's settings (BENCH_* environment variables, read once at start), its paths, its log,
 * and the pinning of servers and load generator to their cores (bench/README.md lists them all).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = join(ROOT, 'bench', 'results');
export const WRK_SCRIPT = join(ROOT, 'bench', 'wrk', 'scenario.lua');
export const BASELINE_SERVER = join(ROOT, 'bench', 'baseline-server.js');
export const PEER_SERVERS = {
  SQLite: join(ROOT, 'bench', 'peers', 'fastify-sqlite.js'),
  PostgreSQL: join(ROOT, 'bench', 'peers', 'fastify-postgres.js'),
} as const;

// Settings (environment variables, all optional)

export function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return Number(raw);
}

export function listFromEnv(name: string): string[] | undefined {
  const raw = process.env[name]?.trim();
  return raw
    ? raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;
}

export const SETTINGS = {
  /** Measured seconds per run. */
  seconds: intFromEnv('BENCH_SECONDS', 10, 1, 600),
  /** Unmeasured seconds of the same load before each run (JIT, connections, caches). */
  warmupSeconds: intFromEnv('BENCH_WARMUP_SECONDS', 1, 0, 60),
  connections: intFromEnv('BENCH_CONNECTIONS', 50, 1, 10_000),
  /** Measured seconds per run of list20-seq16, 16 sequential clients (p99.9 and the slowest answer need a long run). */
  sequentialSeconds: intFromEnv('BENCH_SEQUENTIAL_SECONDS', 60, 1, 3600),
  /** Rounds per scenario; each round is one baseline run, one peer run (when the peer serves it), one service run. */
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
  /** Which databases to run on (`sqlite`, `postgres`); PostgreSQL only when a URL is set. */
  databases: new Set(listFromEnv('BENCH_DATABASES') ?? ['sqlite', 'postgres']),
};
for (const name of SETTINGS.databases) {
  if (name !== 'sqlite' && name !== 'postgres') throw new Error(`BENCH_DATABASES lists sqlite and/or postgres (got ${JSON.stringify(name)})`);
}
export const POSTGRES_URL = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim() || undefined;
export const HAS_TASKSET = cpus().length >= 2 && spawnSync('taskset', ['--version']).error === undefined;
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;
export const USE_WRK = SETTINGS.loadGenerator === 'wrk' || (SETTINGS.loadGenerator === 'auto' && HAS_WRK);
if (SETTINGS.loadGenerator === 'wrk' && !HAS_WRK) throw new Error('BENCH_LOAD=wrk but wrk is not installed');

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

// Pinning: the server on one core, the load generator (and this process) on the other.

export function pinned(cpuList: string): string[] {
  return HAS_TASKSET ? ['taskset', '-c', cpuList] : [];
}

export function pinThisProcess(): void {
  if (!HAS_TASKSET) return;
  // -a: every thread of this process (autocannon runs here when wrk is missing).
  execFileSync('taskset', ['-a', '-c', '-p', SETTINGS.clientCpus, String(process.pid)], { stdio: 'ignore' });
}
