import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import { currentSchemaOf, keepNewIdsAboveStoredOnes } from '../../src/db/dialect.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import * as initial from '../../src/db/migrations/2026-11-25T00-initial.js';
import * as idsFromTransactions from '../../src/db/migrations/2026-11-26T08-ids-from-transactions.js';
import * as events from '../../src/db/migrations/2026-11-27T02-events.js';
import { placeOrder } from '../../src/orders/orders.service.js';
import { createPet, getPet, listPets, updatePet } from '../../src/pets/pets.service.js';
import { createTestDatabase, describeMigration, describeOnPostgres, type TestDatabase, untilListable } from '../helpers/test-db.js';

describeMigration('2026-11-26T02-pet-versions', { poolMax: 1 }, (_dialect, empty) => {

  it('on a database with pets made before it > gives each version 1, and updates then count from there', async () => {
    // The database as the previous release left it: only the first migration, and a stored pet.
    const migrationTableSchema = await currentSchemaOf(empty.db);
    const previous = new Migrator({
      db: empty.db,
      provider: { getMigrations: async () => ({ '2026-11-25T00-initial': initial }) },
      ...(migrationTableSchema ? { migrationTableSchema } : {}),
    });
    assert.equal((await previous.migrateToLatest()).error, undefined);
    const { id } = await empty.db
      .insertInto('pets')
      .values({ name: 'Old', categoryId: 1, status: 'sold', createdAt: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();

    // Later migrations may follow it; this one must be among those applied now.
    assert.ok((await migrateToLatest(empty.db)).includes('2026-11-26T02-pet-versions'));
    assert.deepEqual(await getPet(empty.db, id), { pet: { id, name: 'Old', categoryId: 1, status: 'sold' }, version: 1 });
    assert.equal((await updatePet(empty.db, id, { status: 'available' }, { versions: [1] })).version, 2);
  });
});

describeMigration('2026-11-26T08-ids-from-transactions', { poolMax: 1 }, (dialect, empty) => {

  const newPet = async () => (await createPet(empty.db, { name: 'New', categoryId: 1 })).pet.id;
  const newOrder = async () => (await placeOrder(empty.db, { petId: await newPet() })).id;
  const storedIds = async (table: 'pets' | 'orders') => (await empty.db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => row.id);

  it('on a store with pets and orders > keeps their ids, and every new id is above any id handed out before, also after down and up again', async () => {
    await migrateUpTo(empty.db, '2026-11-26T07-key-last-used');
    // Ids handed out by the previous release; the last of each is removed, so the largest id
    // ever handed out is in the sequence only, not in the table.
    const oldPets = [await newPet(), await newPet()];
    const oldOrders = [await newOrder()];
    // The newest pet and order are removed, so the largest ids ever handed out are in the
    // sequences only. On PostgreSQL the sequences first jump far above the cluster's transaction
    // ids, as in a store whose ids grew faster than its cluster's transactions (imported, say):
    // new ids then stay above them only if the offset counts the sequences.
    for (const table of dialect === 'postgres' ? ['pets', 'orders'] : []) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), pg_current_xact_id()::text::bigint + 1000000000)`.execute(empty.db);
    }
    const largestPet = await newPet();
    const largestOrder = await newOrder();
    oldPets.push(largestPet);
    oldOrders.push(largestOrder);
    const orderOfLargestPet = await empty.db.selectFrom('orders').select('petId').where('id', '=', largestOrder).executeTakeFirstOrThrow();
    await empty.db.deleteFrom('orders').where('id', '=', largestOrder).execute();
    await empty.db.deleteFrom('pets').where('id', 'in', [largestPet, orderOfLargestPet.petId]).execute();
    const keptPets = await storedIds('pets');
    const keptOrders = await storedIds('orders');
    const largestBefore = Math.max(...oldPets, ...oldOrders.map(Number), orderOfLargestPet.petId);

    // Later migrations may follow it; it must be the first applied now.
    assert.equal((await migrateToLatest(empty.db))[0], '2026-11-26T08-ids-from-transactions');
    assert.deepEqual(await storedIds('pets'), keptPets);
    assert.deepEqual(await storedIds('orders'), keptOrders);
    const firstNewPet = await newPet();
    const firstNewOrder = await newOrder();
    assert.ok(firstNewPet > largestBefore, `new pet ${firstNewPet} > ${largestBefore}`);
    assert.ok(firstNewOrder > largestOrder, `new order ${firstNewOrder} > ${largestOrder}`);
    const secondNewPet = await newPet();
    assert.ok(secondNewPet > firstNewPet, `${secondNewPet} > ${firstNewPet}`);
    // Every pet made since is listed, in id order.
    await untilListable(empty.db, secondNewPet);
    const listed = (await listPets(empty.db, { limit: 100 }, 'secret')).pets.map((pet) => pet.id);
    assert.deepEqual(listed, await storedIds('pets'));

    // Back to ids from a sequence: they continue above the largest, and up again above those.
    // The events' txn (2026-11-27T02) is made from the offset this down drops: undone first, as a migrator would.
    await empty.db.transaction().execute((trx) => events.down(trx));
    await empty.db.transaction().execute((trx) => idsFromTransactions.down(trx));
    const afterDown = await newPet();
    assert.ok(afterDown > Math.max(...(await storedIds('pets')).filter((id) => id !== afterDown)), `${afterDown} is the largest`);
    await empty.db.transaction().execute((trx) => idsFromTransactions.up(trx));
    await empty.db.transaction().execute((trx) => events.up(trx));
    const afterUp = await newPet();
    assert.ok(afterUp > afterDown, `${afterUp} > ${afterDown}`);
    assert.ok((await newOrder()) > firstNewOrder);
  });
});

describeOnPostgres('every start on postgres, after the migrations', {}, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('postgres');
  });
  after(() => database.drop());

  it('when stored ids are above the ids new transactions would get (data copied from an older cluster) > raises the offset, so the stored pets are listed and new ids come above them', async () => {
    const { db } = database;
    // As pg_dump and restore into a younger cluster leave it: ids far above this cluster's transaction ids.
    const copiedId = 1_000_000_000_000;
    await db.insertInto('pets').values({ id: copiedId, name: 'Copied', nameKey: 'copied', categoryId: 1, status: 'available', createdAt: 1 }).execute();
    assert.deepEqual((await listPets(db, { limit: 100 }, 'secret')).pets, [], 'hidden until the offset is raised');

    assert.deepEqual(await migrateToLatest(db), []);
    const newId = (await createPet(db, { name: 'New', categoryId: 1 })).pet.id;
    assert.ok(newId > copiedId, `${newId} > ${copiedId}`);
    await untilListable(db, newId);
    assert.deepEqual((await listPets(db, { limit: 100 }, 'secret')).pets.map((pet) => pet.id), [copiedId, newId]);
    // Nothing to raise at the next start.
    assert.deepEqual(await keepNewIdsAboveStoredOnes(db), {});
  });

  it('when only the purged position of the events is above them (every copied event purged) > raises the offset, so new events come after it', async () => {
    const { db } = database;
    const purgedTxn = 2_000_000_000_000;
    await db.updateTable('eventsRetention').set({ purgedTxn, purgedId: 5 }).execute();
    const { raisedTo } = await keepNewIdsAboveStoredOnes(db);
    assert.equal(raisedTo, BigInt(purgedTxn) + 1n);
    await createPet(db, { name: 'After', categoryId: 1 });
    const [event] = await db.selectFrom('events').select('txn').orderBy('txn', 'desc').limit(1).execute();
    assert.ok(event!.txn > purgedTxn, `${event!.txn} > ${purgedTxn}`);
  });
});
