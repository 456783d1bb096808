/**
 * The store under races, across processes over real HTTP: three `animal-store serve` instances on
 * one PostgreSQL schema, and three on one SQLite file. Within one process SQLite runs one
 * transaction at a time; across processes (and on PostgreSQL across connections) only the
 * database's locks keep a pet's status and its orders in agreement. After every race the stored
 * rows must satisfy the store's invariant (test/helpers/store-invariant.ts).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import type { DialectName } from '../../src/db/database-url.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { assertStoreInvariant } from '../helpers/store-invariant.js';
import { describeOnDialect } from '../helpers/test-db.js';

const BUYERS = 60;

interface Answer {
  status: number;
  body: any;
}

async function call(service: RunningService, method: string, path: string, key: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const counts = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((all, a) => {
    const key = a.status === 200 || a.status === 201 || a.status === 204 ? String(a.status) : `${a.status} ${a.body?.code}`;
    return { ...all, [key]: (all[key] ?? 0) + 1 };
  }, {});

const SETUPS: { dialect: DialectName; name: string }[] = [
  { dialect: 'postgres', name: 'three instances on one PostgreSQL database' },
  { dialect: 'sqlite', name: 'three instances on one SQLite file' },
];

for (const setup of SETUPS) {
  describeOnDialect(setup.dialect, `the store under races: ${setup.name}`, { timeout: SUITE_STUCK_MS }, () => {
    let fleet: Fleet | undefined;
    let services: RunningService[] = [];
    let observer: DbHandle;
    let key: string;
    const at = (i: number) => services[i % services.length]!;

    before(async () => {
      fleet = await startFleet({ dialect: setup.dialect, env: { DATABASE_POOL_MAX: '5', RATE_LIMIT_PER_MINUTE: '0' }, keyName: 'store' });
      ({ instances: services, key } = fleet);
      observer = createDb(fleet.databaseUrl, { poolMax: 1 });
    });
    after(async () => {
      await observer?.close();
      await fleet?.stop();
    });

    const createPet = async (name = 'Contested') => {
      const created = await call(at(0), 'POST', '/v1/pets', key, { name, categoryId: 1 });
      assert.equal(created.status, 201);
      return created.body.id as number;
    };
    const placeOrder = async (petId: number) => {
      const placed = await call(at(1), 'POST', '/v1/store/orders', key, { petId });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      return placed.body.id as number;
    };
    /** Opens keep-alive connections on every process (with the key verified), so a burst arrives as one. */
    const warmUp = () => Promise.all(Array.from({ length: BUYERS + 1 }, (_, i) => call(at(i), 'GET', '/v1/store/orders?limit=1', key)));
    const noServerErrors = () => {
      for (const service of services)
        assert.deepEqual(
          service.logs.filter((line) => Number(line.statusCode) >= 500),
          [],
          'no 5xx in any log',
        );
    };

    it(`${BUYERS} orders for one pet at once, over the three processes > exactly one 201, the others 409 pet_not_available`, async () => {
      const petId = await createPet();
      await warmUp();
      const answers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => call(at(i), 'POST', '/v1/store/orders', key, { petId })));
      assert.deepEqual(counts(answers), { 201: 1, '409 pet_not_available': BUYERS - 1 });
      assert.equal((await call(at(2), 'GET', `/v1/pets/${petId}`, key)).body.status, 'pending');
      assert.equal((await call(at(2), 'GET', `/v1/store/orders?petId=${petId}`, key)).body.length, 1);
      await assertStoreInvariant(observer.db);
      noServerErrors();
    });

    it('cancels racing delivers on ten approved orders > exactly one 200 per order, and each pet follows its winner', async () => {
      const orders: { id: number; petId: number }[] = [];
      for (let i = 0; i < 10; i++) {
        const petId = await createPet();
        const id = await placeOrder(petId);
        assert.equal((await call(at(i), 'POST', `/v1/store/orders/${id}/approve`, key)).status, 200);
        orders.push({ id, petId });
      }
      await warmUp();
      const answers = await Promise.all(
        orders.flatMap(({ id }, i) =>
          Array.from({ length: 6 }, (_, j) => call(at(i + j), 'POST', `/v1/store/orders/${id}/${j % 2 ? 'cancel' : 'deliver'}`, key)),
        ),
      );
      assert.deepEqual(counts(answers), { 200: 10, '409 order_state_conflict': 50 });
      for (const { id, petId } of orders) {
        const order = (await call(at(0), 'GET', `/v1/store/orders/${id}`, key)).body;
        const pet = (await call(at(1), 'GET', `/v1/pets/${petId}`, key)).body;
        assert.equal(pet.status, order.status === 'delivered' ? 'sold' : 'available', `order ${id} is ${order.status}`);
      }
      await assertStoreInvariant(observer.db);
      noServerErrors();
    });

    it('mixed random orders, actions, status changes and removals on five pets > no 5xx, no deadlock, and the invariant holds', async () => {
      const pets: number[] = [];
      for (let i = 0; i < 5; i++) pets.push(await createPet(`Mixed ${i}`));
      const orders: number[] = [];
      const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
      const one = async (i: number): Promise<Answer> => {
        const roll = Math.random();
        if (roll < 0.3 || orders.length === 0) {
          const answer = await call(at(i), 'POST', '/v1/store/orders', key, { petId: pick(pets) });
          if (answer.status === 201) orders.push(answer.body.id);
          return answer;
        }
        if (roll < 0.85) return call(at(i), 'POST', `/v1/store/orders/${pick(orders)}/${pick(['approve', 'deliver', 'cancel'])}`, key);
        if (roll < 0.97) return call(at(i), 'PATCH', `/v1/pets/${pick(pets)}`, key, { status: pick(['available', 'pending', 'sold']) });
        return call(at(i), 'DELETE', `/v1/pets/${pick(pets)}`, key);
      };
      await warmUp();
      const answers: Answer[] = [];
      // In waves, so later requests act on orders placed by earlier ones.
      for (let wave = 0; wave < 5; wave++) answers.push(...(await Promise.all(Array.from({ length: 60 }, (_, i) => one(i)))));
      const statuses = new Set(answers.map((a) => a.status));
      assert.ok(
        [...statuses].every((s) => [200, 201, 204, 404, 409].includes(s)),
        JSON.stringify(counts(answers)),
      );
      assert.ok(
        answers.some((a) => a.status === 201),
        'some orders were placed',
      );
      await assertStoreInvariant(observer.db);
      noServerErrors();
    });
  });
}
