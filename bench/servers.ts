/**
 * The servers each scenario measures: the real service (started by the tests' own spawnService,
 * at production defaults), the bare node:http baseline (bench/baseline-server.js), and the naive
 * Fastify peer of the database (bench/peers/), all pinned to the servers' core.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CONFIG_DEFAULTS } from '../src/config.js';
import { type RunningService, spawnService, waitForListeningProcesses } from '../test/helpers/spawn-service.js';
import { onCleanup, ownChild } from './cleanup.js';
import { processTree } from './proc.js';
import { BASELINE_SERVER, PEER_SERVERS, pinned, ROOT, SETTINGS } from './settings.js';
import { backendCpu, type Target } from './targets.js';

export interface Server {
  label: string;
  baseUrl: string;
  /** The processes whose CPU and memory count. */
  pids(): number[];
  /** CPU seconds of each PostgreSQL backend serving it, when it has any. */
  backendCpu?: () => Promise<Map<number, number> | undefined>;
  stop(): Promise<number | null>;
}

/** The service's settings: production defaults, a limit the load never reaches, and whatever the caller set. */
function serviceEnv(cursorSecret: string): Record<string, string> {
  const passed = Object.fromEntries(Object.keys(CONFIG_DEFAULTS).flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
  delete passed.DATABASE_URL;
  delete passed.PORT;
  delete passed.HOST;
  return {
    LOG_LEVEL: 'info',
    // As the peer's (and the tests' processes hold fewer: test/helpers/spawn-service.ts).
    DATABASE_POOL_MAX: String(databasePoolMax()),
    RATE_LIMIT_PER_MINUTE: String(SETTINGS.rateLimitPerMinute),
    // Set so the bench can make a deep cursor with the service's own code; the service reads its
    // secret once either way, so this changes no per-request work.
    CURSOR_SECRET: cursorSecret,
    ...passed,
  };
}

export async function startService(
  target: Target,
  cursorSecret: string,
  options: {
    workers?: number;
    profileDir?: string;
    /** Applied last; `undefined` removes a setting passed on from the bench's environment. */ env?: Record<string, string | undefined>;
  } = {},
): Promise<Server> {
  const workers = options.workers ?? 1;
  const service: RunningService = await spawnService({
    databaseUrl: target.url,
    env: { ...serviceEnv(cursorSecret), ...options.env },
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
    backendCpu: () => backendCpu(target),
    async stop() {
      const result = await service.stop('SIGTERM', 30_000);
      await release();
      return result.code;
    },
  };
}

/** The bare node:http baseline, answering the service's own first page of 20 pets, byte for byte. */
export async function startBaseline(service: Server, key: string): Promise<Server> {
  const page = await fetch(`${service.baseUrl}/v1/pets?limit=20`, { headers: { authorization: `Bearer ${key}` } });
  if (page.status !== 200) throw new Error(`GET /v1/pets?limit=20 answered ${page.status}`);
  const pageFile = join(mkdtempSync(join(tmpdir(), 'animal-store-bench-page-')), 'page.json');
  onCleanup(
    `remove ${pageFile}`,
    async () => rmSync(dirname(pageFile), { recursive: true, force: true }),
    () => rmSync(dirname(pageFile), { recursive: true, force: true }),
  );
  writeFileSync(pageFile, Buffer.from(await page.arrayBuffer()));
  return startNodeServer('baseline', BASELINE_SERVER, [pageFile], {});
}

/**
 * The naive Fastify peer of the target's database, on the service's DATABASE_URL (so the same file
 * or schema) and DATABASE_POOL_MAX; on PostgreSQL under an application_name of its own, so its
 * backends' CPU is counted apart from the service's.
 */
export async function startPeer(target: Target, key: string): Promise<Server> {
  const applicationName = target.applicationName && `${target.applicationName}-peer`;
  let url = target.url;
  if (applicationName) {
    const named = new URL(target.url);
    named.searchParams.set('application_name', applicationName);
    url = named.toString();
  }
  const server = await startNodeServer(`peer (${target.label})`, PEER_SERVERS[target.label], [], {
    DATABASE_URL: url,
    DATABASE_POOL_MAX: String(databasePoolMax()),
    PEER_API_KEY: key,
  });
  return applicationName ? { ...server, backendCpu: () => backendCpu(target, applicationName) } : server;
}

/** The service's DATABASE_POOL_MAX: the one set for the bench (passed on to the service), or its default. */
export function databasePoolMax(): number {
  return Number(process.env.DATABASE_POOL_MAX?.trim() || CONFIG_DEFAULTS.DATABASE_POOL_MAX);
}

/** A node program pinned to the servers' core that prints `listening on PORT` once ready. */
async function startNodeServer(label: string, script: string, args: string[], env: Record<string, string>): Promise<Server> {
  const [command, ...rest] = [...pinned(SETTINGS.serverCpus), process.execPath, script];
  const child = spawn(command, [...rest, ...args], { cwd: ROOT, env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const owned = ownChild(child, label);
  const port = await new Promise<number>((done, fail) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /listening on (\d+)/.exec(text);
      if (match) done(Number(match[1]));
    });
    void owned.exited.then((code) => fail(new Error(`the ${label} server exited with code ${code} before listening`)));
  });
  return {
    label,
    baseUrl: `http://127.0.0.1:${port}`,
    pids: () => [child.pid!],
    async stop() {
      await owned.stop();
      return owned.exited;
    },
  };
}
