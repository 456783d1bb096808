/**
 * Retries of one create with one Idempotency-Key, over real HTTP: three `animal-store serve`
 * instances on one PostgreSQL schema, and three workers (`--workers 3`) on one SQLite file. Only
 * the database can decide which retry runs, so this is where a check-then-insert would show.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { DialectName } from '../../src/db/database-url.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { describeOnDialect } from '../helpers/test-db.js';

const RETRIES = 45;

interface Answer {
  status: number;
  replayed: string | null;
  location: string | null;
  body: string;
}

async function call(service: RunningService, method: string, path: string, key: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

const SETUPS: { name: string; dialect: DialectName; instances: number; workers?: number }[] = [
  { name: 'three instances on one PostgreSQL database', dialect: 'postgres', instances: 3 },
  { name: 'three worker processes on one SQLite file', dialect: 'sqlite', instances: 1, workers: 3 },
];

for (const setup of SETUPS) {
  describeOnDialect(setup.dialect, `Idempotency-Key across processes: ${setup.name}`, { timeout: SUITE_STUCK_MS }, () => {
    let fleet: Fleet | undefined;
    let services: RunningService[] = [];
    let key: string;
    const at = (i: number) => services[i % services.length]!;

    before(async () => {
      fleet = await startFleet({
        dialect: setup.dialect,
        instances: setup.instances,
        workers: setup.workers,
        env: { DATABASE_POOL_MAX: '5', RATE_LIMIT_PER_MINUTE: '0' },
        keyName: 'retrier',
      });
      ({ instances: services, key } = fleet);
      // Every process verifies the key and opens its connections before the burst.
      await Promise.all(Array.from({ length: RETRIES }, (_, i) => call(at(i), 'GET', '/v1/pets?limit=1', key)));
    });
    after(() => fleet?.stop());

    it('POST /v1/pets > many concurrent retries with one Idempotency-Key on every instance > make exactly one animal, and every later retry replays it', async () => {
      const name = `Once ${randomUUID().slice(0, 8)}`;
      const idempotencyKey = `"${randomUUID()}"`;
      const retry = (i: number) => call(at(i), 'POST', '/v1/pets', key, { 'idempotency-key': idempotencyKey }, { name, categoryId: 1 });
      const answers = await Promise.all(Array.from({ length: RETRIES }, (_, i) => retry(i)));

      const ran = answers.filter((a) => a.status === 201 && a.replayed === null);
      assert.equal(ran.length, 1, JSON.stringify(answers.map((a) => [a.status, a.replayed])));
      for (const answer of answers) {
        if (answer.status === 409) assert.match(answer.body, /"code":"idempotency_key_in_use"/);
        else {
          assert.equal(answer.status, 201);
          assert.equal(answer.body, ran[0]!.body);
          assert.equal(answer.location, ran[0]!.location);
        }
      }
      for (let i = 0; i < services.length * 3; i++) {
        const later = await retry(i);
        assert.equal(later.status, 201);
        assert.equal(later.replayed, 'true');
        assert.equal(later.body, ran[0]!.body);
      }
      const found = await call(at(0), 'GET', `/v1/pets?name=${encodeURIComponent(name)}`, key);
      assert.equal(JSON.parse(found.body).length, 1);
    });
  });
}
