/**
 * Every filter of the pets listing is answered through an index, never by reading the whole
 * table. The statements explained are the repository's own (selectPetsAfter). docs/query-plans.md
 * shows the same plans at 1,000,000 pets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { prefixRange } from '../../src/pets/pet-name-key.js';
import { type PetFilter, selectPetsAfter } from '../../src/pets/pets.repository.js';
import { createTestDatabase, NO_POSTGRES, type TestDatabase } from '../helpers/test-db.js';

const FILTERS: [string, PetFilter, RegExp][] = [
  ['status', { status: 'sold' }, /pets_status_id_idx/],
  ['categoryId', { categoryId: 42 }, /pets_category_id_id_idx/],
  ['name', { nameKeys: prefixRange('rex') }, /pets_name_key_id_idx/],
  ['id', { ids: [7, 9, 11] }, /INTEGER PRIMARY KEY|pets_pkey/],
  ['one id', { ids: [7] }, /INTEGER PRIMARY KEY|pets_pkey/],
];
const COMBINED: [string, PetFilter][] = [
  ['status and categoryId', { status: 'sold', categoryId: 42 }],
  ['name and status', { nameKeys: prefixRange('rex'), status: 'available' }],
  ['name and categoryId', { nameKeys: prefixRange('rex'), categoryId: 42 }],
  ['id and name', { ids: [7, 9], nameKeys: prefixRange('rex') }],
  ['no filter', {}],
];

async function explain(database: TestDatabase, filter: PetFilter, prefix: string): Promise<string[]> {
  const query = selectPetsAfter(database.db, { afterId: 10, filter, limit: 21 }).compile();
  const result = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
  return result.rows.map((row) => row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row));
}

describe('pets listing query plans on sqlite', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('sqlite');
  });
  after(() => database.drop());

  // SQLite plans without statistics unless someone runs ANALYZE: the service never does.
  for (const [name, filter, index] of FILTERS) {
    it(`filter ${name} > searches ${index.source}, never scans the table`, async () => {
      const plan = await explain(database, filter, 'explain query plan');
      assert.ok(
        plan.some((line) => /^SEARCH pets USING /.test(line) && index.test(line)),
        plan.join('\n'),
      );
      assert.ok(!plan.some((line) => /^SCAN pets\b/.test(line)), plan.join('\n'));
    });
  }
  for (const [name, filter] of COMBINED) {
    it(`filters ${name} > search an index, never scan the table`, async () => {
      const plan = await explain(database, filter, 'explain query plan');
      assert.ok(
        plan.some((line) => /^SEARCH pets USING /.test(line)),
        plan.join('\n'),
      );
      assert.ok(!plan.some((line) => /^SCAN pets\b/.test(line)), plan.join('\n'));
    });
  }
});

describe('pets listing query plans on postgres', { skip: NO_POSTGRES ?? false }, () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase('postgres');
    // PostgreSQL plans by statistics, so the table gets enough rows for them to mean something:
    // 20,000 pets over 500 categories and three statuses, a few of them named Rex. Ids are given:
    // on PostgreSQL a pet's id comes from its transaction, one per transaction, and no pet is
    // created after this load in this database.
    await sql`
      insert into pets (id, name, name_key, category_id, status, created_at)
      select g, case when g % 1000 = 0 then 'Rex ' || g else 'Pet ' || g end,
             case when g % 1000 = 0 then 'rex ' || g else 'pet ' || g end,
             1 + g % 500, (array['available', 'pending', 'sold'])[1 + g % 3], 0
      from generate_series(1, 20000) as g`.execute(database.db);
    await sql`analyze pets`.execute(database.db);
  });
  after(() => database.drop());

  for (const [name, filter, index] of FILTERS) {
    it(`filter ${name} > scans an index, never the table`, async () => {
      const plan = await explain(database, filter, 'explain');
      assert.ok(!plan.some((line) => /Seq Scan on pets/.test(line)), plan.join('\n'));
      // A third of the pets have each status: walking the primary key in order meets 21 of
      // them at once, and PostgreSQL may rightly prefer that; the other filters are selective.
      if (name !== 'status')
        assert.ok(
          plan.some((line) => index.test(line)),
          plan.join('\n'),
        );
    });
  }
  for (const [name, filter] of COMBINED) {
    it(`filters ${name} > scan an index, never the table`, async () => {
      const plan = await explain(database, filter, 'explain');
      assert.ok(
        plan.some((line) => /Index (Only )?Scan|Bitmap Index Scan/.test(line)),
        plan.join('\n'),
      );
      assert.ok(!plan.some((line) => /Seq Scan on pets/.test(line)), plan.join('\n'));
    });
  }
});
