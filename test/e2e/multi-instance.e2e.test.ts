/**
 * Several real `animal-store serve` processes on one database, as behind a load balancer:
 * three instances on one PostgreSQL, and `--workers` on PostgreSQL and on SQLite.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type Fleet, makeKey, startFleet } from '../helpers/fleet.js';
import { runCli, type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect, describeOnPostgres } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';

/** The documented revocation bound of these instances (KEY_CACHE_TTL_MS). */
const KEY_CACHE_TTL_MS = 1000;

async function request(service: RunningService, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

/** Walks every page of GET /v1/pets on one instance and answers the ids seen. */
async function allPetIds(service: RunningService, key: string): Promise<number[]> {
  const ids: number[] = [];
  let path: string | undefined = '/v1/pets?limit=100';
  for (let page = 0; path && page < 100; page++) {
    const response = await request(service, 'GET', path, key);
    assert.equal(response.status, 200);
    ids.push(...(response.body as { id: number }[]).map((pet) => pet.id));
    path = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return ids;
}

describeOnPostgres('three instances on one PostgreSQL database', { timeout: SUITE_STUCK_MS }, () => {
  let fleet: Fleet | undefined;
  let databaseUrl: string;
  let instances: RunningService[] = [];

  before(async () => {
    // Started together on an empty schema: the migration lock must let exactly one migrate.
    fleet = await startFleet({ dialect: 'postgres', migrateFirst: false, env: { KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS), DATABASE_POOL_MAX: '5' } });
    ({ instances, databaseUrl } = fleet);
  });
  after(() => fleet?.stop());

  it('when started at once on an empty database > all three serve', async () => {
    const { key } = await makeKey(databaseUrl, 'probe');
    const answers = await Promise.all(instances.map((instance) => request(instance, 'GET', '/v1/pets', key)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200],
    );
  });

  it('when a key is made with the CLI > it works on all three at once', async () => {
    const { key } = await makeKey(databaseUrl, 'fleet');
    const answers = await Promise.all(instances.map((instance) => request(instance, 'GET', '/v1/pets?limit=1', key)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200],
    );
  });

  it('when 300 creates run concurrently across the three > every pet gets a distinct id and is readable from every instance', async () => {
    const { key } = await makeKey(databaseUrl, 'writers');
    const created = await Promise.all(
      Array.from({ length: 300 }, (_, i) => request(instances[i % 3]!, 'POST', '/v1/pets', key, { name: `pet ${i}`, categoryId: 1 + (i % 7) })),
    );
    assert.deepEqual([...new Set(created.map((c) => c.status))], [201]);
    const ids = created.map((c) => c.body.id as number);
    assert.equal(new Set(ids).size, 300);
    const sorted = [...ids].sort((a, b) => a - b);
    for (const instance of instances) {
      assert.deepEqual(await allPetIds(instance, key), sorted);
      const fetched = await Promise.all(ids.slice(0, 50).map((id) => request(instance, 'GET', `/v1/pets/${id}`, key)));
      assert.deepEqual(
        fetched.map((f) => f.body.id),
        ids.slice(0, 50),
      );
    }
  });

  it(`when a key is revoked > all three refuse it once KEY_CACHE_TTL_MS (${KEY_CACHE_TTL_MS} ms) has passed`, async () => {
    const { id, key } = await makeKey(databaseUrl, 'to revoke');
    // Every instance verifies (and caches) the key first, the worst case for revocation.
    assert.deepEqual(
      (await Promise.all(instances.map((i) => request(i, 'GET', '/v1/pets?limit=1', key)))).map((a) => a.status),
      [200, 200, 200],
    );
    const revoked = await runCli(['keys', 'revoke', String(id)], { DATABASE_URL: databaseUrl });
    assert.equal(revoked.code, 0, revoked.stderr);
    // Each instance refuses it as soon as its cached verification expires; the deadline only fails
    // an instance that keeps accepting the key well past KEY_CACHE_TTL_MS.
    await Promise.all(
      instances.map((instance) =>
        waitUntil(async () => (await request(instance, 'GET', '/v1/pets?limit=1', key)).status === 401, {
          deadlineMs: KEY_CACHE_TTL_MS + 10_000,
          everyMs: 50,
          what: `${instance.baseUrl} still accepts the revoked key`,
        }),
      ),
    );
    const answers = await Promise.all(instances.map((i) => request(i, 'GET', '/v1/pets?limit=1', key)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [401, 401, 401],
    );
    assert.deepEqual(
      answers.map((a) => a.body.code),
      ['unauthorized', 'unauthorized', 'unauthorized'],
    );
  });
});

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store serve --workers 2 on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let fleet: Fleet | undefined;
    let service: RunningService;
    let key: string;

    before(async () => {
      fleet = await startFleet({ dialect, instances: 1, workers: 2, migrateFirst: false, keyName: 'workers' });
      ({ key } = fleet);
      service = fleet.instances[0]!;
    });
    after(() => fleet?.stop());

    it('when 200 creates arrive at once > both workers answer and every create succeeds with a distinct id', async () => {
      const created = await Promise.all(Array.from({ length: 200 }, (_, i) => request(service, 'POST', '/v1/pets', key, { name: `w${i}`, categoryId: 1 })));
      // On SQLite the writers of two processes take turns on the file lock instead of failing.
      assert.deepEqual([...new Set(created.map((c) => c.status))], [201]);
      assert.equal(new Set(created.map((c) => c.body.id)).size, 200);
      // Log lines are written in batches, at most LOG_FLUSH_MS late: wait for both workers' lines.
      const pids = new Set<unknown>();
      await service.waitForLog((line) => {
        if (line.msg === 'request') pids.add(line.pid);
        return pids.size === 2;
      });
      assert.equal(pids.size, 2, 'requests were served by both workers');
      assert.equal((await allPetIds(service, key)).length, 200);
    });

    it('when sent SIGTERM > the primary stops both workers and exits 0', async () => {
      const exit = await service.stop();
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.equal(service.logs.filter((line) => line.msg === 'stopped').length, 2);
      assert.ok(service.logs.some((line) => line.msg === 'all workers stopped'));
    });
  });
}
