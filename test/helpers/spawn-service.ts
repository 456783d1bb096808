/**
 * Real processes for end-to-end tests: the built command (`dist/cli.js`) run as a child process,
 * either to completion (`runCli`) or as a listening server (`spawnService`). Several servers may
 * run at once, against one database or several. Every child started here is remembered
 * (child-processes.ts), so an `after` hook can stop them all (`stopAllServices`) and none outlives
 * the test process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { childEnv, type ExitResult, type ExtraEnv, live, openFifo, track } from './child-processes.js';

/**
 * The flags the service runs with in production (`npm start`, the Dockerfile): tests and the
 * bench start it the same way. test/runtime-flags.test.ts checks that all three agree.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=8'];

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The default deadline of a start, a command or a log line: generous, since only a stuck process
 * fails on it (no test asserts how long one took) and `npm test` runs files side by side, so a
 * process may wait its turn for a busy core for seconds.
 */
const STUCK_MS = 60_000;

/**
 * The deadline of a whole end-to-end suite (`describe`'s timeout): it fails only a suite that is
 * stuck. Its tests start real processes one after another, each of which may wait for a core
 * while other files run, so a suite's time on a busy machine is no measure of anything.
 */
export const SUITE_STUCK_MS = 600_000;

export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult extends ExitResult {
  stdout: string;
  stderr: string;
}

export type LogLine = Record<string, unknown> & { msg?: unknown; level?: unknown };

export interface SpawnServiceOptions {
  /** The DATABASE_URL the server uses: a `sqlite:` path or a `postgres://` URL. */
  databaseUrl: string;
  /** More environment, applied last (so it may override PORT, HOST, LOG_LEVEL); `undefined` removes a variable. */
  env?: ExtraEnv;
  /** Command-line arguments; `['serve', '--no-bootstrap-key']` by default. */
  args?: string[];
  /** How long to wait for the "Server listening at" log line; 15 s by default. */
  startTimeoutMs?: number;
  /**
   * A command the node process is started through, such as `['taskset', '-c', '0']` (the bench
   * pins the server to a core). It must exec node in place, so the child's pid stays node's.
   */
  commandPrefix?: string[];
  /** Options for node itself, before the script (the bench's `--cpu-prof`). */
  nodeArgs?: string[];
  /**
   * What the server's standard output is: a socket pair this process reads (Node's default for a
   * child), or `fifo`, a real pipe as in `serve | reader`, with a 64 KiB buffer in the kernel
   * (see `stopReadingStdout`).
   */
  stdout?: 'socket' | 'fifo';
}

export interface RunningService {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  baseUrl: string;
  port: number;
  process: ChildProcess;
  /** Every JSON log line the server wrote on stdout so far, parsed, in order. */
  logs: LogLine[];
  /** Everything written on stdout so far, log lines and anything else (the bootstrap key). */
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited. */
  exited: Promise<ExitResult>;
  /**
   * From now on the server's output is read and dropped, not kept or parsed (the bench: thousands
   * of log lines a second would cost the load generator's core, and a reader that falls behind
   * makes the server drop log lines).
   */
  dropOutput(): void;
  /**
   * From now on nobody reads the server's standard output, like a reader of `serve | reader` that
   * hangs: once what is already in flight fills this process's stream buffer and the pipe, every
   * later write of the server finds the pipe full (with `stdout: 'fifo'`, the pipe holds 64 KiB).
   * Answers a function that reads again (the reader came back, the pipe drains).
   */
  stopReadingStdout(): () => void;
  /** Waits for a log line (already written or still to come) that the predicate accepts. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Sends a signal (SIGTERM by default) and waits for the exit; kills it and throws if it takes longer than timeoutMs. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ExitResult>;
}

function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` first (npm test does)`);
}

/** Runs `node dist/cli.js ...args` to completion and answers its exit and its output. */
export async function runCli(args: string[], env: ExtraEnv, options: { timeoutMs?: number; cwd?: string; stdin?: string } = {}): Promise<CliResult> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: childEnv(env),
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  // What the command reads on stdin, when given (`import -`).
  if (options.stdin !== undefined) {
    // A command may refuse its input before reading all of it, and exit: the rest meets a closed pipe.
    child.stdin!.on('error', () => {});
    child.stdin!.end(options.stdin);
  }
  const exited = track(child);
  // 'exit' may come before the pipes are drained; 'close' comes after both.
  const closed = new Promise((resolve) => child.once('close', resolve));
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timeoutMs = options.timeoutMs ?? STUCK_MS;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const result = await exited;
  await closed;
  clearTimeout(timer);
  if (result.signal === 'SIGKILL') throw new Error(`animal-store ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`);
  return { ...result, stdout, stderr };
}

const LISTENING = /^Server listening at (http:\/\/\S+)$/;

/** Starts `node dist/cli.js serve` on a free port and resolves once it listens. */
export async function spawnService(options: SpawnServiceOptions): Promise<RunningService> {
  assertBuilt();
  const args = options.args ?? ['serve', '--no-bootstrap-key'];
  // A serving process holds its whole pool from its start (db/postgres/pool.ts fillPool), and test files run four
  // at a time, some with fleets of processes: fewer than the default 10 each keeps them within PostgreSQL's 100.
  const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_POOL_MAX: '4', DATABASE_URL: options.databaseUrl, ...options.env };
  const [command, ...prefixArgs] = [...(options.commandPrefix ?? []), process.execPath];
  const fifo = options.stdout === 'fifo' ? openFifo() : undefined;
  const child = spawn(command!, [...prefixArgs, ...SERVICE_NODE_FLAGS, ...(options.nodeArgs ?? []), CLI_PATH, ...args], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', fifo?.writeFd ?? 'pipe', 'pipe'],
  });
  fifo?.closeWriteEnd();
  const exited = track(child);
  const childStdout: Readable = fifo?.reader ?? child.stdout!;
  if (fifo) void exited.then(() => fifo.remove());
  // A forgotten server must not keep the test process alive; the 'exit' hook above then kills it.
  child.unref();
  for (const stream of [childStdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  let exitResult: ExitResult | undefined;
  void exited.then((result) => (exitResult = result));

  let stdout = '';
  let stderr = '';
  let partial = '';
  const logs: LogLine[] = [];
  const waiters = new Set<{ predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();

  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let keeping = true;
  childStdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (!keeping) return;
    stdout += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const text of lines) {
      if (!text.startsWith('{')) continue;
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        continue;
      }
      logs.push(line);
      for (const waiter of waiters) {
        if (waiter.predicate(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  });

  const waitForLog = (predicate: (line: LogLine) => boolean, timeoutMs = STUCK_MS / 2): Promise<LogLine> => {
    const seen = logs.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (line: LogLine) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no matching log line within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = STUCK_MS / 2): Promise<ExitResult> => {
    if (exitResult) return exitResult;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([exited, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))]);
    clearTimeout(timer);
    if (result === 'timeout') {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the server did not exit within ${timeoutMs} ms of ${signal}; stdout:\n${stdout}\nstderr:\n${stderr}`);
    }
    return result;
  };

  const startTimeoutMs = options.startTimeoutMs ?? STUCK_MS;
  let listening: LogLine;
  try {
    listening = await Promise.race([
      waitForLog((line) => typeof line.msg === 'string' && LISTENING.test(line.msg), startTimeoutMs),
      exited.then((result) => {
        throw new Error(`the server exited (${JSON.stringify(result)}) before listening; stdout:\n${stdout}\nstderr:\n${stderr}`);
      }),
    ]);
  } catch (error) {
    if (!exitResult) {
      child.kill('SIGKILL');
      await exited;
    }
    throw error;
  }
  const baseUrl = LISTENING.exec(listening.msg as string)![1]!.replace(/\/+$/, '');
  return {
    baseUrl,
    port: Number(new URL(baseUrl).port),
    process: child,
    logs,
    stdout: () => stdout,
    stderr: () => stderr,
    // A test awaiting the exit keeps the event loop alive until it comes (the child is unref'd so a
    // forgotten server does not): otherwise node:test may end that test as "still pending".
    get exited() {
      for (const handle of [child, childStdout, child.stderr] as unknown as { ref?: () => void }[]) handle.ref?.();
      return exited;
    },
    waitForLog,
    stopReadingStdout() {
      childStdout.pause();
      return () => void childStdout.resume();
    },
    dropOutput() {
      keeping = false;
      stdout = '';
      logs.length = 0;
    },
    stop,
  };
}

/**
 * Waits until `count` processes of the service (the workers of `--workers N`) listen: spawnService
 * resolves at the first, and a test that needs them all must not race the others' start.
 */
export async function waitForListeningProcesses(service: RunningService, count: number, timeoutMs = STUCK_MS): Promise<void> {
  const pids = new Set<unknown>();
  await service.waitForLog((line) => typeof line.msg === 'string' && LISTENING.test(line.msg) && pids.add(line.pid).size >= count, timeoutMs);
}

/** Stops every child still running (SIGTERM, then SIGKILL after timeoutMs); for `after` hooks. */
export async function stopAllServices(timeoutMs = 5000): Promise<void> {
  await Promise.all(
    [...live].map(async (child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    }),
  );
}
