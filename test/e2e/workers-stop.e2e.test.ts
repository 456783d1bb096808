/**
 * `serve --workers N` stopped while workers are still starting: SIGTERM must end it with exit 0,
 * however far each worker got. A busy machine (simulated by CPU burners) makes starts slow.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { childEnv, type ExitResult } from '../helpers/child-processes.js';
import { CLI_PATH, REPO_ROOT, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

const children = new Set<ChildProcess>();

/** Starts `serve --workers N` and sends SIGTERM right after the first log line `signalAfter` accepts. */
async function stopWhen(databaseUrl: string, workers: number, signalAfter: (line: { msg?: string }) => boolean): Promise<ExitResult> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--no-bootstrap-key', '--workers', String(workers)], {
    cwd: REPO_ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const exited = new Promise<ExitResult>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let signalled = false;
  for await (const text of createInterface({ input: child.stdout! })) {
    if (signalled || !text.startsWith('{')) continue;
    if (signalAfter(JSON.parse(text) as { msg?: string })) {
      signalled = true;
      child.kill('SIGTERM');
    }
  }
  assert.ok(signalled, 'the awaited log line never came');
  return exited;
}

/** Busy processes on every core, so workers start slowly, as on a loaded CI machine. */
function burnCpu(): () => void {
  const burners = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  for (const burner of burners) children.add(burner);
  return () => burners.forEach((burner) => burner.kill('SIGKILL'));
}

describe('serve --workers stopped while starting', { timeout: SUITE_STUCK_MS }, () => {
  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('SIGTERM as soon as the workers are forked, under CPU load > exits 0', async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    const stopBurning = burnCpu();
    try {
      assert.deepEqual(await stopWhen(place.url, 3, (line) => line.msg === 'workers started'), { code: 0, signal: null });
    } finally {
      stopBurning();
      await place.remove();
    }
  });

  it('SIGTERM once the first of 3 workers listens, under CPU load > exits 0', async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    const stopBurning = burnCpu();
    try {
      assert.deepEqual(await stopWhen(place.url, 3, (line) => /^Server listening at /.test(line.msg ?? '')), { code: 0, signal: null });
    } finally {
      stopBurning();
      await place.remove();
    }
  });
});
