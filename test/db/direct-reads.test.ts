/**
 * Compiled reads skip Kysely's way (db/compiled-query.ts, the engine's `directRead`): on SQLite they
 * run at once (db/sqlite/statements.ts `readNow`), so they must never read through a transaction
 * another caller holds open on the one connection; on PostgreSQL they take a pooled connection, so a
 * read made through a transaction must not take one: it would miss the transaction's own writes.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findPetById } from '../../src/pets/pets.repository.js';
import { createPet } from '../../src/pets/pets.service.js';
import { createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

describeOnDialect('sqlite', 'direct reads on SQLite', {}, () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase('sqlite');
  });
  after(() => t?.drop());

  it('a read while a transaction is open waits for it, and never answers its writes rolled back', async () => {
    const { pet } = await createPet(t.db, { name: 'Before', categoryId: 1 });
    let readDuring: Promise<unknown> | undefined;
    await assert.rejects(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable('pets').set({ name: 'Rolled back' }).where('id', '=', pet.id).execute();
        readDuring = findPetById(t.db, pet.id);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal(((await readDuring) as { name: string }).name, 'Before');
  });

  it('answers rows named as Kysely names them, with only the columns selected', async () => {
    const { pet } = await createPet(t.db, { name: 'Named', categoryId: 4 });
    const row = await findPetById(t.db, pet.id);
    assert.deepEqual(
      { id: row?.id, name: row?.name, categoryId: row?.categoryId, status: row?.status, version: row?.version },
      { id: pet.id, name: 'Named', categoryId: 4, status: 'available', version: 1 },
    );
    // Only these: pets.service answers a listing's rows as they are.
    assert.deepEqual(Object.keys(row ?? {}).sort(), ['categoryId', 'id', 'name', 'status', 'version']);
  });
});

describeOnDialect('postgres', 'direct reads on PostgreSQL', {}, () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase('postgres');
  });
  after(() => t?.drop());

  it("a compiled read through a transaction > runs on the transaction's connection and sees its writes", async () => {
    const { pet } = await createPet(t.db, { name: 'Before', categoryId: 1 });
    await assert.rejects(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable('pets').set({ name: 'Inside' }).where('id', '=', pet.id).execute();
        assert.equal((await findPetById(trx, pet.id))?.name, 'Inside');
        // A read of the database itself (another connection) sees only what is committed.
        assert.equal((await findPetById(t.db, pet.id))?.name, 'Before');
        throw new Error('roll back');
      }),
      /roll back/,
    );
  });
});
