/** compiledQuery (db/compiled-query.ts): compiled once per database, run with each call's own values. */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { compiledQuery } from '../../src/db/compiled-query.js';
import type { Database } from '../../src/db/database.js';
import { createPet } from '../../src/pets/pets.service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `compiledQuery on ${dialect}`, {}, () => {
    let t: TestDatabase;
    const ids: number[] = [];
    before(async () => {
      t = await createTestDatabase(dialect);
      for (const name of ['a', 'b', 'c', 'd']) ids.push((await createPet(t.db, { name, categoryId: name === 'a' ? 1 : 2 })).pet.id);
    });
    after(() => t?.drop());

    const petsOfCategoryAfter = compiledQuery<
      Database,
      { categoryId: number; afterId: number; limit: number },
      { id: number; categoryId: number; createdAt: number }
    >((db, value) =>
      db
        .selectFrom('pets')
        .select(['id', 'categoryId', 'createdAt'])
        .where('status', '=', 'available')
        .where('categoryId', '=', value('categoryId'))
        .where('id', '>', value('afterId'))
        .orderBy('id')
        .limit(value('limit')),
    );

    it('answers each call with its own values, constants kept, and result names camel-cased', async () => {
      const run = (categoryId: number, afterId: number, limit: number) =>
        petsOfCategoryAfter.execute(t.db, { categoryId, afterId, limit }).then((rows) => rows.map((r) => r.id));
      assert.deepEqual(await run(2, 0, 10), ids.slice(1));
      assert.deepEqual(await run(2, ids[1]!, 1), [ids[2]]);
      assert.deepEqual(await run(1, 0, 10), [ids[0]]);
      assert.deepEqual(await run(3, 0, 10), []);
      const [row] = await petsOfCategoryAfter.execute(t.db, { categoryId: 1, afterId: 0, limit: 1 });
      assert.equal(typeof row!.createdAt, 'number');
      assert.equal(row!.categoryId, 1);
    });

    it('runs inside a transaction too', async () => {
      const rows = await t.db.transaction().execute((trx) => petsOfCategoryAfter.execute(trx, { categoryId: 2, afterId: 0, limit: 2 }));
      assert.deepEqual(
        rows.map((r) => r.id),
        ids.slice(1, 3),
      );
    });
  });
}
