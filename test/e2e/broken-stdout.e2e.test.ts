/**
 * `animal-store serve | head -1`: once the reader of standard output is gone, every write there
 * fails (EPIPE). The service must keep serving, and stop on SIGTERM (or at SHUTDOWN_TIMEOUT_MS)
 * instead of hanging on its logs.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnv, type ExitResult } from '../helpers/child-processes.js';
import { CLI_PATH, REPO_ROOT, runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

const children = new Set<ChildProcess>();

/** Starts `serve` like `serve 2>&1 | head -N`: both streams are closed after `lines` lines. */
async function serveIntoClosedPipe(
  databaseUrl: string,
  lines: number,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; exited: Promise<ExitResult>; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI_PATH, 'serve'], {
    cwd: REPO_ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<ExitResult>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let seen = 0;
  for await (const chunk of lines > 0 ? child.stdout! : []) {
    seen += String(chunk).split('\n').length - 1;
    if (seen >= lines) break;
  }
  child.stdout!.destroy();
  child.stderr!.destroy();
  return { child, exited, port };
}

/** Polls /healthz until it answers 200 (the service listens); false if it does not within 10 s. */
async function waitUntilServing(port: number): Promise<boolean> {
  const giveUpAt = Date.now() + 10_000;
  while (Date.now() < giveUpAt) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })).status === 200) return true;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return false;
}

async function exitWithin(exited: Promise<ExitResult>, child: ChildProcess, ms: number): Promise<ExitResult | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([exited, new Promise<'still running'>((resolve) => (timer = setTimeout(resolve, ms, 'still running')))]);
  clearTimeout(timer);
  if (result === 'still running') child.kill('SIGKILL');
  return result;
}

describe('serve with its standard output closed by the reader', { timeout: SUITE_STUCK_MS }, () => {
  const places: { remove(): Promise<void> }[] = [];
  after(async () => {
    // A hung service (the failure these tests catch) must not outlive them.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const place of places) await place.remove();
  });

  it('after the first line (the key and every log line then fail) > keeps serving and exits 0 on SIGTERM', async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    places.push(place);
    const { child, exited, port } = await serveIntoClosedPipe(place.url, 1, {});
    assert.ok(await waitUntilServing(port), 'the service never answered /healthz');
    child.kill('SIGTERM');
    assert.deepEqual(await exitWithin(exited, child, 15_000), { code: 0, signal: null });
  });

  it('with a request that never finishes > SHUTDOWN_TIMEOUT_MS still ends the process, with exit 1', async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    places.push(place);
    const made = await runCli(['keys', 'create', '--name', 'stalled'], { DATABASE_URL: place.url });
    assert.equal(made.code, 0, made.stderr);
    // Closed before the first line; at this level the force-exit's own line is the first to fail.
    const { child, exited, port } = await serveIntoClosedPipe(place.url, 0, { SHUTDOWN_TIMEOUT_MS: '500', LOG_LEVEL: 'error' });
    assert.ok(await waitUntilServing(port), 'the service never answered /healthz');
    // On a connection the service has accepted (its first answer came back), headers and then a
    // body that never comes: the stop cannot finish this request.
    const stalled = connect(port, '127.0.0.1');
    stalled.on('error', () => {});
    stalled.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const [first] = (await once(stalled, 'data')) as [Buffer];
    assert.match(String(first), /^HTTP\/1\.1 200 /);
    stalled.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${made.stdout.trim()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    child.kill('SIGTERM');
    try {
      assert.deepEqual(await exitWithin(exited, child, 15_000), { code: 1, signal: null });
    } finally {
      stalled.destroy();
    }
  });
});
