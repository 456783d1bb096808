/**
 * A network partition between one instance and PostgreSQL in the middle of a write transaction:
 * the instance gives up and closes its socket, but no byte (nor the close) reaches the server, so
 * the server's session sits idle in its transaction, holding the pet's row lock. Every other
 * instance's change of that pet must not wait on it for as long as the partition lasts (TCP
 * keepalive only notices after hours).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { placeOrder } from '../../../src/orders/orders.service.js';
import { createPet, updatePet } from '../../../src/pets/pets.service.js';
import { startTcpProxy } from '../../helpers/tcp-proxy.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';

const STATEMENT_TIMEOUT_MS = 1000;

describeOnPostgres('PostgreSQL partition during a write transaction', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let direct: DbHandle;
  const cleanups: (() => Promise<void>)[] = [];

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    direct = createDb(place.url, { poolMax: 2, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    await migrateToLatest(direct.db);
  });
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
    await direct?.close();
    await place?.remove();
  });

  /** An instance whose link to PostgreSQL partitions right after it sends a statement matching `trigger`. */
  const instancePartitionedAfter = async (trigger: RegExp) => {
    const url = new URL(place.url);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const partition = proxy.partitionAfter(trigger);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const handle = createDb(url.toString(), { poolMax: 1, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    cleanups.push(async () => {
      await handle.close().catch(() => {});
      await proxy.close();
    });
    return { db: handle.db, partition };
  };

  /**
   * Each attempt waits at most the statement timeout for a lock. The instance cut off has given
   * up already, so the server must have ended its session and released its locks: a few attempts
   * leave room for a busy machine, while locks held for the whole partition fail them all.
   */
  const succeedsWithinAttempts = async <T>(work: () => Promise<T>): Promise<T> => {
    const failures: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return await work();
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    return assert.fail(`still locked by the partitioned session: ${failures.join('; ')}`);
  };

  it('an instance cut off while it holds a pet locked > another instance changes that pet once the first one has given up', { timeout: 60_000 }, async () => {
    const { pet } = await createPet(direct.db, { name: 'Held', categoryId: 1 });
    const cutOff = await instancePartitionedAfter(/for update/i);
    // The status change locks the pet (SELECT … FOR UPDATE) first; the partition falls right after.
    await assert.rejects(updatePet(cutOff.db, pet.id, { status: 'sold' }));
    await cutOff.partition;
    const changed = await succeedsWithinAttempts(() => updatePet(direct.db, pet.id, { name: 'Free' }));
    assert.equal(changed.pet.name, 'Free');
  });

  it('an instance cut off after inserting an order, before its commit > other instances still place orders for other pets', { timeout: 60_000 }, async () => {
    const { pet: first } = await createPet(direct.db, { name: 'First', categoryId: 1 });
    const { pet: second } = await createPet(direct.db, { name: 'Second', categoryId: 1 });
    // The cut-off transaction holds its pet locked and its order uncommitted until the database ends it.
    const cutOff = await instancePartitionedAfter(/insert into "orders"/i);
    await assert.rejects(placeOrder(cutOff.db, { petId: first.id }));
    await cutOff.partition;
    const order = await succeedsWithinAttempts(() => placeOrder(direct.db, { petId: second.id }));
    assert.equal(order.petId, second.id);
  });
});
