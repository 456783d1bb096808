/** The first-start key must reach the user: never made by a start that then fails. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS, waitForListeningProcesses } from '../helpers/spawn-service.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';

const KEY = /ask_[A-Za-z0-9_-]{43}/;

describe('animal-store serve on an empty key store', { timeout: SUITE_STUCK_MS }, () => {
  let busy: { url: string; remove(): Promise<void> };
  let fresh: { url: string; remove(): Promise<void> };
  let occupant: RunningService;

  before(async () => {
    busy = await createEmptyDatabaseUrl('sqlite');
    fresh = await createEmptyDatabaseUrl('sqlite');
    occupant = await spawnService({ databaseUrl: busy.url });
  });
  after(async () => {
    await stopAllServices();
    await busy?.remove();
    await fresh?.remove();
  });

  it('when its port is taken > exits 1 with a hint, makes no key, and the next start shows one', async () => {
    const failed = await runCli(['serve'], { DATABASE_URL: fresh.url, PORT: String(occupant.port), HOST: '127.0.0.1' });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /EADDRINUSE[\s\S]*start with PORT set to a free port/);
    assert.doesNotMatch(failed.stdout, KEY);

    const listed = await runCli(['keys', 'list', '--json'], { DATABASE_URL: fresh.url });
    assert.deepEqual(JSON.parse(listed.stdout), []);

    const started = await spawnService({ databaseUrl: fresh.url, args: ['serve'] });
    await waitUntil(() => KEY.test(started.stdout()), { deadlineMs: 5000, everyMs: 50, what: 'the bootstrap key is not printed' });
    assert.match(started.stdout(), KEY);
    assert.match(started.stdout(), new RegExp(`curl -H "Authorization: Bearer ask_[^"]+" ${started.baseUrl}/v1/pets`));

    // The bootstrap key holds every scope, keys:manage included: it can make the store's other keys.
    const key = KEY.exec(started.stdout())![0];
    const current = await fetch(`${started.baseUrl}/v1/api-keys/current`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(current.status, 200);
    assert.deepEqual(((await current.json()) as { scopes: string[] }).scopes, [...SCOPES]);
    assert.ok(SCOPES.includes('keys:manage'));
  });

  it('with --workers 2 and PORT=0 > prints the key with the port the workers listen on', async () => {
    const place = await createEmptyDatabaseUrl('sqlite');
    try {
      const service = await spawnService({ databaseUrl: place.url, args: ['serve', '--workers', '2'] });
      // A worker stopped while still starting would fail the stop; this test is about the key.
      await waitForListeningProcesses(service, 2);
      await waitUntil(() => KEY.test(service.stdout()), { deadlineMs: 5000, everyMs: 50, what: 'the bootstrap key is not printed' });
      assert.match(service.stdout(), new RegExp(`${service.baseUrl}/v1/pets`));
      assert.equal((await service.stop()).code, 0);
    } finally {
      await place.remove();
    }
  });
});
