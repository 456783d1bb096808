/**
 * `serve --workers N` when a worker dies: the primary says so in a log line that a shipper can
 * read without guessing (the worker's pid under its own key, not a second `pid`).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { duplicateKeysOf } from '../helpers/log-lines.js';
import { spawnService, stopAllServices, SUITE_STUCK_MS, waitForListeningProcesses } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

describe('serve --workers 2 when a worker is killed', { timeout: SUITE_STUCK_MS }, () => {
  const places: { remove(): Promise<void> }[] = [];
  after(async () => {
    await stopAllServices();
    for (const place of places) await place.remove();
  });

  it("the primary's \"a worker died\" line > has each key once, the primary's pid as pid and the dead worker's as workerPid", async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    places.push(place);
    const service = await spawnService({ databaseUrl: place.url, args: ['serve', '--no-bootstrap-key', '--workers', '2'] });
    await waitForListeningProcesses(service, 2);
    const workerPid = service.logs.find((line) => typeof line.msg === 'string' && line.msg.startsWith('Server listening at'))!.pid as number;
    process.kill(workerPid, 'SIGKILL');
    // Killed soon after its start, the worker counts as dying while starting (the others are
    // stopped); on a slow machine it may count as a later death (another is started): either
    // line must be well formed.
    const died = await service.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('a worker died'), 15_000);
    const raw = service
      .stdout()
      .split('\n')
      .find((text) => text.includes(`"msg":${JSON.stringify(died.msg)}`))!;
    assert.deepEqual(duplicateKeysOf(raw), [], raw);
    assert.equal(died.pid, service.process.pid);
    assert.equal(died.workerPid, workerPid);
    assert.equal(died.signal, 'SIGKILL');
  });
});
