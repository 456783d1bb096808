/**
 * A change or removal under If-Match sends one statement text whatever the number of ETags: the
 * versions are one parameter. One text per number of tags let a client with If-Match headers of
 * 1 to 1000 tags fill the process's bound of prepared statements (db/postgres/prepared-statements.ts),
 * leaving every statement first seen after them unprepared.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { deletePetRow, insertPet, updatePetRow } from '../../src/pets/pets.repository.js';
import { recordingTexts } from '../helpers/statement-texts.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `If-Match statements on ${dialect}`, {}, () => {
    let t: TestDatabase;
    before(async () => {
      t = await createTestDatabase(dialect);
    });
    after(() => t?.drop());

    it('Attack: If-Match with 1 to 40 tags sends one update text and one delete text', async () => {
      const pet = await insertPet(t.db, { name: 'Tagged', categoryId: 1, status: 'available', createdAt: Date.now() });
      const updates = recordingTexts(t.db);
      const removals = recordingTexts(t.db);
      for (let count = 1; count <= 40; count += 1) {
        const versions = Array.from({ length: count }, (_, i) => 1000 + i);
        assert.equal(await updatePetRow(updates.db, pet.id, { status: 'sold' }, versions), undefined);
        assert.deepEqual(await deletePetRow(removals.db, pet.id, versions), { deleted: false });
      }
      assert.equal(updates.texts.size, 1, [...updates.texts].join('\n'));
      assert.equal(removals.texts.size, 1, [...removals.texts].join('\n'));
      // The version among several still matches.
      assert.equal((await updatePetRow(t.db, pet.id, { status: 'sold' }, [7, pet.version, 9]))?.version, pet.version + 1);
      assert.deepEqual(await deletePetRow(t.db, pet.id, [3, pet.version + 1]), { deleted: true });
    });
  });
}
