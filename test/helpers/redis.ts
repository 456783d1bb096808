/**
 * Redis for tests. Suites that share counts through the machine's Redis use TEST_REDIS_URL
 * (.ci/run sets it) with a random key prefix of their own, and report "skipped" without it.
 * Tests that stop Redis start their own `redis-server` on a free port, as a child process, and
 * never touch the machine's.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, it, type TestOptions } from 'node:test';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || undefined;

/** What the tests print when skipped for want of Redis; docs/testing.md, "Running the tests", quotes them. */
export const REDIS_SKIP_REASON = 'needs Redis: TEST_REDIS_URL is not set (.ci/run sets it)';
const REDIS_SERVER = '/usr/bin/redis-server';
export const REDIS_SERVER_SKIP_REASON = `${REDIS_SERVER} is not installed (apt-get install redis-server)`;

export const NO_REDIS = TEST_REDIS_URL ? undefined : REDIS_SKIP_REASON;
export const NO_REDIS_SERVER = spawnSync(REDIS_SERVER, ['--version']).status === 0 ? undefined : REDIS_SERVER_SKIP_REASON;

/** A suite that needs the shared Redis; without it, one skipped test says so (see describeOnPostgres). */
export function describeOnRedis(name: string, options: TestOptions, body: () => void): void {
  if (NO_REDIS) it(name, { skip: NO_REDIS }, () => {});
  else describe(name, options, body);
}

/** A suite that starts its own redis-server. */
export function describeWithOwnRedis(name: string, options: TestOptions, body: () => void): void {
  if (NO_REDIS_SERVER) it(name, { skip: NO_REDIS_SERVER }, () => {});
  else describe(name, options, body);
}

/** A key prefix no other test (or deployment) uses; `removeKeys` deletes what was written under it. */
export function testNamespace(): { prefix: string; removeKeys(url: string): Promise<void> } {
  const prefix = `animal-store-test-${randomBytes(6).toString('hex')}:`;
  return {
    prefix,
    async removeKeys(url) {
      const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await client.connect();
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await client.del(...keys);
        } while (cursor !== '0');
      } finally {
        client.disconnect();
      }
    },
  };
}

export interface OwnRedis {
  url: string;
  /** Kills the server (SIGKILL: as abrupt as a crash) and waits for its exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of the test's own, on a free port, without persistence. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    process.once('exit', () => started.kill('SIGKILL'));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    start,
  };
}
