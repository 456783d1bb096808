/**
 * `animal-store serve | reader` where the reader stops reading (`serve | sleep 400`, a log
 * shipper that hangs): the pipe fills, and the service must go on answering, drop the log lines
 * it cannot write (counted in a metric), say how many once the pipe drains, and stop on SIGTERM.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sampleValue } from '../helpers/metrics.js';
import { runCli, spawnService, stopAllServices, SUITE_STUCK_MS, waitForListeningProcesses } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

/** Far more log output than a pipe (64 KiB) and the test's stream buffer hold: ~300 bytes a line. */
const REQUESTS = 3000;
const CONCURRENCY = 16;
const DROPPED = 'animal_store_log_lines_dropped_total';

/** Sends `count` requests, `concurrency` at a time, and answers how many answered each status. */
async function burst(url: string, headers: Record<string, string>, count: number, concurrency: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < count) {
        sent++;
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

describe('serve with a stdout pipe nobody reads', { timeout: SUITE_STUCK_MS }, () => {
  const places: { remove(): Promise<void> }[] = [];
  after(async () => {
    // A frozen service (the failure these tests catch) must not outlive them.
    await stopAllServices();
    for (const place of places) await place.remove();
  });

  for (const workers of [1, 2]) {
    const args = workers === 1 ? ['serve', '--no-bootstrap-key'] : ['serve', '--no-bootstrap-key', '--workers', String(workers)];
    it(`${args.join(' ')} > answers every request and /healthz with the pipe full, says how many lines it dropped once the pipe drains, and exits 0 on SIGTERM`, async () => {
      const place = await createEmptyDatabaseUrl('sqlite');
      places.push(place);
      const made = await runCli(['keys', 'create', '--name', 'unread-stdout'], { DATABASE_URL: place.url });
      assert.equal(made.code, 0, made.stderr);
      const auth = { authorization: `Bearer ${made.stdout.trim().split('\n').at(-1)}` };
      // Workers start slowly on a busy machine: the waits are generous, they assert nothing of time.
      const service = await spawnService({ databaseUrl: place.url, args, stdout: 'fifo', env: { RATE_LIMIT_PER_MINUTE: '1000000' }, startTimeoutMs: 60_000 });
      await waitForListeningProcesses(service, workers, 60_000);
      const readAgain = service.stopReadingStdout();

      const statuses = await burst(`${service.baseUrl}/v1/pets?limit=20`, auth, REQUESTS, CONCURRENCY);
      assert.deepEqual([...statuses], [[200, REQUESTS]]);
      // Lines were dropped: a write found the pipe full. Nobody reads it, so it stays full.
      const metrics = await fetch(`${service.baseUrl}/metrics`);
      assert.equal(metrics.status, 200);
      const dropped = sampleValue(await metrics.text(), DROPPED);
      assert.ok(dropped !== undefined && dropped > 0, `${DROPPED} is ${dropped}`);
      const health = await fetch(`${service.baseUrl}/healthz`);
      assert.equal(health.status, 200);

      // The reader comes back: each process that dropped lines says how many, in one line.
      readAgain();
      const summary = await service.waitForLog((line) => line.msg === 'log lines dropped: standard output could not take them', 60_000);
      assert.equal(summary.level, 40);
      assert.ok(typeof summary.droppedLines === 'number' && summary.droppedLines > 0, JSON.stringify(summary));

      // The pipe full again, the stop must not wait for it either: exit 0 is a stop that ended by
      // itself, within SHUTDOWN_TIMEOUT_MS (its force-exit answers 1).
      service.stopReadingStdout();
      assert.deepEqual([...(await burst(`${service.baseUrl}/v1/pets?limit=20`, auth, REQUESTS, CONCURRENCY))], [[200, REQUESTS]]);
      service.process.kill('SIGTERM');
      assert.deepEqual(await service.exited, { code: 0, signal: null });
    });
  }
});

/**
 * Standard output a socket nobody reads: what a Node supervisor (child_process 'pipe') or
 * systemd's journal gives the service. A socket cannot be opened anew through /proc/self/fd/1
 * as a pipe is, so the primary and its workers share one description of it, whose O_NONBLOCK
 * libuv clears at every fork of a worker and Node at every exit: found with
 * the primary and a worker blocked in write(2) for good after SIGTERM, /healthz unanswered once a
 * worker was replaced.
 */
describe('serve --workers 2 with a stdout socket nobody reads', { timeout: SUITE_STUCK_MS }, () => {
  const places: { remove(): Promise<void> }[] = [];
  const workerPids: number[] = [];
  after(async () => {
    // A blocked worker would outlive its primary's SIGKILL: each is ended by its own pid.
    for (const pid of workerPids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await stopAllServices();
    for (const place of places) await place.remove();
  });

  it('serve --workers 2 > answers every request with the socket full, and exits 0 on SIGTERM', async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    places.push(place);
    const made = await runCli(['keys', 'create', '--name', 'unread-socket'], { DATABASE_URL: place.url });
    assert.equal(made.code, 0, made.stderr);
    const auth = { authorization: `Bearer ${made.stdout.trim().split('\n').at(-1)}` };
    const service = await spawnService({
      databaseUrl: place.url,
      args: ['serve', '--no-bootstrap-key', '--workers', '2'],
      stdout: 'socket',
      env: { RATE_LIMIT_PER_MINUTE: '1000000' },
      startTimeoutMs: 60_000,
    });
    await waitForListeningProcesses(service, 2, 60_000);
    for (const line of service.logs) if (typeof line.msg === 'string' && line.msg.startsWith('Server listening at')) workerPids.push(line.pid as number);
    service.stopReadingStdout();
    assert.deepEqual([...(await burst(`${service.baseUrl}/v1/pets?limit=20`, auth, REQUESTS, CONCURRENCY))], [[200, REQUESTS]]);
    assert.equal((await fetch(`${service.baseUrl}/healthz`)).status, 200);
    // The lines dropped are counted, wherever they were dropped (the primary relays the workers').
    const dropped = sampleValue(await (await fetch(`${service.baseUrl}/metrics`)).text(), DROPPED);
    assert.ok(dropped !== undefined && dropped > 0, `${DROPPED} is ${dropped}`);
    // A generous bound, not a measure: a stop that ended by itself exits 0 within SHUTDOWN_TIMEOUT_MS.
    assert.deepEqual(await service.stop('SIGTERM', 60_000), { code: 0, signal: null });
  });
});
