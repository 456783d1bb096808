/**
 * Crash safety: the real service is SIGKILLed in the middle of a stream of creates, PATCHes and
 * order actions from several clients. After a restart on the same database every change it
 * acknowledged is there (or the one change that was in flight when it died, which may or may not
 * have committed), and pets and orders agree (the store invariant): no half-done change.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { AnimalStoreError, createAnimalStoreClient, type AnimalStoreClient, type Order, type Pet } from '../../client/src/index.js';
import { createDb } from '../../src/db/create-db.js';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { storeInvariantBreaches } from '../helpers/store-invariant.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';

const WORKERS = 4;
const KILL_AFTER_ACKS = 60;

/** What a client knows of one row: its last acknowledged state, and the state the request in flight would leave. */
interface Known<T> {
  acked: T;
  inFlight?: T;
}
type PetState = Pick<Pet, 'name' | 'status'>;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `crash safety on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
    let key: string;

    before(async () => {
      place = await createEmptyDatabaseUrl(dialect);
      const migrated = await runCli(['migrate'], { DATABASE_URL: place.url });
      assert.equal(migrated.code, 0, migrated.stderr);
      const created = await runCli(['keys', 'create', '--name', 'crash'], { DATABASE_URL: place.url });
      assert.equal(created.code, 0, created.stderr);
      key = created.stdout.trim().split('\n').at(-1)!;
    });
    after(async () => {
      await stopAllServices();
      await place?.remove();
    });

    it('service > SIGKILL during creates, PATCHes and order actions > after restart every acknowledged change is stored and pets agree with orders', async () => {
      const service: RunningService = await spawnService({ databaseUrl: place.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });
      const pets = new Map<number, Known<PetState>>();
      const orders = new Map<number, Known<Order['status']>>();
      let acks = 0;
      let killed = false;
      const ack = () => {
        if (++acks >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          service.process.kill('SIGKILL');
        }
      };

      /** Runs one change, noting what it may leave before sending and what it did once acknowledged. */
      const step = async <T>(change: () => Promise<T>, expect: () => void, done: (value: T) => void): Promise<void> => {
        expect();
        const value = await change();
        done(value);
        ack();
      };

      const worker = async (client: AnimalStoreClient, w: number) => {
        for (let n = 0; ; n++) {
          const pet = await client.createPet({ name: `w${w}-${n}`, categoryId: 1 });
          pets.set(pet.id, { acked: { name: pet.name, status: pet.status } });
          ack();
          const known = pets.get(pet.id)!;
          await step(
            () => client.updatePet(pet.id, { name: `w${w}-${n}-renamed` }),
            () => (known.inFlight = { ...known.acked, name: `w${w}-${n}-renamed` }),
            (changed) => pets.set(pet.id, { acked: { name: changed.name, status: changed.status } }),
          );
          const current = () => pets.get(pet.id)!;
          let order: Order | undefined;
          await step(
            () => client.placeOrder({ petId: pet.id }),
            () => (current().inFlight = { ...current().acked, status: 'pending' }),
            (placed) => {
              order = placed;
              orders.set(placed.id, { acked: placed.status });
              pets.set(pet.id, { acked: { ...current().acked, status: 'pending' } });
            },
          );
          const actions = n % 3 === 0 ? (['approve', 'deliver'] as const) : n % 3 === 1 ? (['cancel'] as const) : (['approve'] as const);
          for (const action of actions) {
            const next = { approve: 'approved', deliver: 'delivered', cancel: 'cancelled' } as const;
            const petAfter = action === 'deliver' ? 'sold' : action === 'cancel' ? 'available' : 'pending';
            const call = { approve: client.approveOrder, deliver: client.deliverOrder, cancel: client.cancelOrder }[action];
            await step(
              () => call(order!.id),
              () => {
                orders.get(order!.id)!.inFlight = next[action];
                current().inFlight = { ...current().acked, status: petAfter };
              },
              (changed) => {
                orders.set(changed.id, { acked: changed.status });
                pets.set(pet.id, { acked: { ...current().acked, status: petAfter } });
              },
            );
          }
        }
      };

      // No retries: a change the dying service never answered must stay unacknowledged here.
      const clients = Array.from({ length: WORKERS }, () => createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key, retry: { maxAttempts: 1 } }));
      const ended = await Promise.allSettled(clients.map((client, w) => worker(client, w)));
      for (const result of ended) {
        assert.equal(result.status, 'rejected');
        const error = (result as PromiseRejectedResult).reason as unknown;
        assert.ok(error instanceof AnimalStoreError && error.code === 'network_error', `a worker stopped on something else than the crash: ${String(error)}`);
      }
      assert.equal((await service.exited).signal, 'SIGKILL');
      assert.ok(acks >= KILL_AFTER_ACKS);

      // The restarted service must start on what the dead one left.
      const restarted = await spawnService({ databaseUrl: place.url });
      await restarted.stop();

      const handle = createDb(place.url);
      try {
        assert.deepEqual(await storeInvariantBreaches(handle.db), []);
        const storedPets = new Map(
          (await handle.db.selectFrom('pets').select(['id', 'name', 'status']).execute()).map((row) => [row.id, { name: row.name, status: row.status }]),
        );
        for (const [id, known] of pets) {
          const stored = storedPets.get(id);
          const allowed = [known.acked, ...(known.inFlight ? [known.inFlight] : [])];
          assert.ok(
            allowed.some((state) => JSON.stringify(state) === JSON.stringify(stored)),
            `pet ${id} is ${JSON.stringify(stored)}, not one of ${JSON.stringify(allowed)}`,
          );
        }
        const storedOrders = new Map((await handle.db.selectFrom('orders').select(['id', 'status']).execute()).map((row) => [row.id, row.status]));
        for (const [id, known] of orders) {
          const allowed = [known.acked, ...(known.inFlight ? [known.inFlight] : [])];
          assert.ok(allowed.includes(storedOrders.get(id)!), `order ${id} is ${storedOrders.get(id)}, not one of ${allowed.join(', ')}`);
        }
        assert.ok(orders.size > 0 && pets.size >= WORKERS);
      } finally {
        await handle.close();
      }
    });
  });
}
