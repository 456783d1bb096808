/**
 * Lost updates across processes, over real HTTP: three `animal-store serve` instances on one
 * PostgreSQL schema, and three workers (`--workers 3`) on one SQLite file. Within one process on
 * SQLite every statement runs synchronously, so only several processes can interleave a
 * read-then-write; across processes the version check must be part of the write itself.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { DialectName } from '../../src/db/database-url.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { describeOnDialect } from '../helpers/test-db.js';

const WRITERS = 60;

interface Answer {
  status: number;
  etag: string | null;
  body: any;
}

async function call(service: RunningService, method: string, path: string, key: string, options: { body?: unknown; ifMatch?: string } = {}): Promise<Answer> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(options.body === undefined ? {} : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }),
      ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), body: text === '' ? undefined : JSON.parse(text) };
}

const counts = (answers: Answer[]) => answers.reduce<Record<number, number>>((all, a) => ({ ...all, [a.status]: (all[a.status] ?? 0) + 1 }), {});

const SETUPS: { name: string; dialect: DialectName; instances: number; workers?: number }[] = [
  { name: 'three instances on one PostgreSQL database', dialect: 'postgres', instances: 3 },
  { name: 'three worker processes on one SQLite file', dialect: 'sqlite', instances: 1, workers: 3 },
];

for (const setup of SETUPS) {
  describeOnDialect(setup.dialect, `concurrent changes of one pet: ${setup.name}`, { timeout: SUITE_STUCK_MS }, () => {
    let fleet: Fleet | undefined;
    let services: RunningService[] = [];
    let key: string;
    /** The instance for the i-th request: round robin over the instances (workers share one port). */
    const at = (i: number) => services[i % services.length]!;

    before(async () => {
      // Migrated once first, so the instances start on a ready schema.
      fleet = await startFleet({
        dialect: setup.dialect,
        instances: setup.instances,
        workers: setup.workers,
        env: { DATABASE_POOL_MAX: '5', RATE_LIMIT_PER_MINUTE: '0' },
        keyName: 'writers',
      });
      ({ instances: services, key } = fleet);
    });
    after(() => fleet?.stop());

    const create = async () => {
      const created = await call(at(0), 'POST', '/v1/pets', key, { body: { name: 'Contested', categoryId: 1 } });
      assert.equal(created.status, 201);
      return { id: created.body.id as number, etag: created.etag! };
    };
    const read = (id: number) => call(at(1), 'GET', `/v1/pets/${id}`, key);
    /**
     * Opens (and keeps alive) as many connections as there are writers, with every process
     * having verified the key, so the writers' requests reach the processes in one burst
     * instead of trickling in behind connection set-up.
     */
    const warmUp = () => Promise.all(Array.from({ length: WRITERS + 1 }, (_, i) => call(at(i), 'GET', '/v1/pets?limit=1', key)));

    it(`${WRITERS} PATCHes with the same If-Match, spread over the processes > exactly one answers 200 and the others 412`, async () => {
      const { id, etag } = await create();
      await warmUp();
      const answers = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) => call(at(i), 'PATCH', `/v1/pets/${id}`, key, { body: { name: `writer ${i}` }, ifMatch: etag })),
      );
      assert.deepEqual(counts(answers), { 200: 1, 412: WRITERS - 1 });
      const winner = answers.find((a) => a.status === 200)!;
      assert.equal(winner.etag, `"${id}-2"`);
      const stored = await read(id);
      assert.equal(stored.body.name, winner.body.name);
      assert.equal(stored.etag, `"${id}-2"`);
    });

    it(`${WRITERS} PATCHes without If-Match, spread over the processes > all apply and none is lost`, async () => {
      const { id } = await create();
      await warmUp();
      const answers = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) => call(at(i), 'PATCH', `/v1/pets/${id}`, key, { body: { categoryId: i + 1 } })),
      );
      assert.deepEqual(counts(answers), { 200: WRITERS });
      assert.equal(new Set(answers.map((a) => a.etag)).size, WRITERS);
      assert.equal((await read(id)).etag, `"${id}-${WRITERS + 1}"`);
    });

    it(`a DELETE and ${WRITERS} PATCHes with the same If-Match > exactly one applies`, async () => {
      const { id, etag } = await create();
      await warmUp();
      const answers = await Promise.all([
        call(at(2), 'DELETE', `/v1/pets/${id}`, key, { ifMatch: etag }),
        ...Array.from({ length: WRITERS }, (_, i) => call(at(i), 'PATCH', `/v1/pets/${id}`, key, { body: { status: 'sold' }, ifMatch: etag })),
      ]);
      const applied = answers.filter((a) => a.status === 200 || a.status === 204);
      assert.equal(applied.length, 1, JSON.stringify(counts(answers)));
      assert.ok(
        answers.every((a) => [200, 204, 404, 412].includes(a.status)),
        JSON.stringify(counts(answers)),
      );
      const after = await read(id);
      assert.equal(after.status, applied[0]!.status === 204 ? 404 : 200);
    });

    it('a removed pet > is gone from every process, and the next pet gets a larger id', async () => {
      const { id } = await create();
      assert.equal((await call(at(2), 'DELETE', `/v1/pets/${id}`, key)).status, 204);
      for (let i = 0; i < 3; i++) assert.equal((await call(at(i), 'GET', `/v1/pets/${id}`, key)).status, 404);
      assert.ok((await create()).id > id);
    });
  });
}
