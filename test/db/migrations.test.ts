import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Kysely, Migrator } from 'kysely';
import { currentSchemaOf } from '../../src/db/dialect.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import * as initial from '../../src/db/migrations/2026-11-25T00-initial.js';
import { legacyPosition } from '../../src/events/events.cursor.js';
import { readPurged } from '../../src/events/events.retention.js';
import { numberWaitingEvents } from '../../src/events/events.sequencer.js';
import { createPet, getPet, listPets, updatePet } from '../../src/pets/pets.service.js';
import { describeMigration } from '../helpers/test-db.js';

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

describeMigration('2026-11-28T00-plain-ids-and-positions', { poolMax: 1 }, (dialect, empty) => {
  const newPet = async (name = 'New') => (await createPet(empty.db, { name, categoryId: 1 })).pet.id;
  const storedIds = async (table: 'pets' | 'orders') => (await empty.db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => row.id);

  it('on a store of the previous release > keeps ids, numbers events in their old feed order, translates old cursors, the purge and fan-out positions, and new ids come above every id handed out', async () => {
    await migrateUpTo(empty.db, '2026-11-27T06-webhook-deliveries-endpoint-due');
    const db = empty.db as Kysely<any>;
    // Made as the previous release made them: each pet in a transaction of its own, one order.
    const oldPets = [await newPet('A'), await newPet('B'), await newPet('C')];
    await db.insertInto('orders').values({ petId: oldPets[0], status: 'placed', createdAt: 1, updatedAt: 1 }).execute();
    const largest = await newPet('D');
    await db.deleteFrom('pets').where('id', '=', largest).execute();
    const oldFeed = (await db.selectFrom('events').select(['txn', 'id', 'type']).orderBy('txn').orderBy('id').execute()) as {
      txn: number;
      id: number;
      type: string;
    }[];
    assert.equal(oldFeed.length, 6, 'four pets made, one order, one pet removed');
    // The first event purged, the fan-out after the third.
    await db.updateTable('eventsRetention').set({ purgedTxn: oldFeed[0]!.txn, purgedId: oldFeed[0]!.id }).execute();
    await db.deleteFrom('events').where('id', '=', oldFeed[0]!.id).execute();
    await db.updateTable('webhookDispatch').set({ fannedTxn: oldFeed[2]!.txn, fannedId: oldFeed[2]!.id }).execute();
    const keptPets = await storedIds('pets');

    assert.deepEqual(await migrateToLatest(empty.db), ['2026-11-28T00-plain-ids-and-positions']);
    assert.deepEqual(await storedIds('pets'), keptPets);
    const first = await newPet();
    assert.ok(first > largest, `new pet ${first} > ${largest}, the largest ever handed out`);
    assert.ok((await newPet()) > first);
    const listed = (await listPets(empty.db, { limit: 100 }, 'secret')).pets.map((pet) => pet.id);
    assert.deepEqual(listed, await storedIds('pets'));

    // Written without a service running (nothing numbers them on PostgreSQL): numbered as the sequencer would.
    await numberWaitingEvents(empty.db);
    // The kept events, in the old order, then the new ones.
    const positions = await empty.db.selectFrom('events').select(['id', 'position', 'type']).orderBy('position').execute();
    assert.deepEqual(
      positions.slice(0, 5).map((row) => row.id),
      oldFeed.slice(1).map((row) => row.id),
    );
    const purged = await readPurged(empty.db);
    const fanned = (await empty.db.selectFrom('webhookDispatch').select('fannedPosition').executeTakeFirstOrThrow()).fannedPosition;
    const positionOfOld = (index: number) => positions.find((row) => row.id === oldFeed[index]!.id)!.position;
    if (dialect === 'postgres') {
      assert.equal(purged.position, 1);
      assert.deepEqual(
        positions.slice(0, 5).map((row) => row.position),
        [2, 3, 4, 5, 6],
      );
      // Old cursors: at an event, between events, before the purged one.
      assert.equal(await legacyPosition(empty.db, oldFeed[3]!.txn, oldFeed[3]!.id), positionOfOld(3));
      assert.equal(await legacyPosition(empty.db, oldFeed[3]!.txn, oldFeed[3]!.id + 1), positionOfOld(3));
      assert.equal(await legacyPosition(empty.db, oldFeed[0]!.txn, oldFeed[0]!.id - 1), 0);
      assert.equal(await legacyPosition(empty.db, Number.MAX_SAFE_INTEGER, 0), positionOfOld(5));
    } else {
      // SQLite: the position is the id, as the old cursors (0, id) said.
      assert.equal(purged.position, oldFeed[0]!.id);
      for (const row of positions) assert.equal(row.position, row.id);
    }
    assert.equal(fanned, positionOfOld(2));
    assert.equal(positions.length, 7, 'and the two new pets');
    assert.ok(
      positions.slice(5).every((row) => row.position > positionOfOld(5)),
      'new events after the old ones',
    );
  });
});
