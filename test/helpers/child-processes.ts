/**
 * The child processes of end-to-end tests: their environment, the set of those still running
 * (so an `after` hook can stop them all, and none outlives the test process), and the FIFO a
 * service's stdout can be written to. spawn-service.ts starts and stops them.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '../../src/config.js';

export type ExtraEnv = Record<string, string | undefined>;

export interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Every child started and not yet exited. */
export const live = new Set<ChildProcess>();

// Last resort: whatever happens to the tests, no server outlives the test process.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** The environment of a child: this process's, without any service configuration or test-runner variable, plus `extra`. */
export function childEnv(extra: ExtraEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...Object.keys(CONFIG_DEFAULTS), 'NODE_TEST_CONTEXT']) delete env[name];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Remembers a child until it exits; answers its exit. */
export function track(child: ChildProcess): Promise<ExitResult> {
  live.add(child);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
}

/**
 * A FIFO in a fresh folder: this process holds its read end (opened first, without waiting for a
 * writer), the child gets its write end, so the child's stdout is a pipe like `serve | reader`'s.
 */
export function openFifo(): { writeFd: number; reader: Socket; closeWriteEnd(): void; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'animal-store-stdout-'));
  const path = join(folder, 'stdout');
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${String(made.stderr)}`);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY);
  const reader = new Socket({ fd: readFd, readable: true, writable: false });
  return {
    writeFd,
    reader,
    closeWriteEnd: () => closeSync(writeFd),
    remove: () => {
      reader.destroy();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
