/**
 * The look at the tables that Kysely's Migrator takes before every migration run, on PostgreSQL:
 * only the store's own schema. Another store in the same database (a schema of its own) may be
 * dropped at any moment; a look at every schema finds it in the statement's snapshot, then fails
 * to find it by name ("schema … does not exist"), and the migrations fail with it.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../../helpers/test-db.js';

describeOnPostgres('OwnSchemaIntrospector (PostgreSQL)', {}, () => {
  let store: TestDatabase;
  let schema: string;
  before(async () => {
    store = await createTestDatabase('postgres');
    schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]!.schema;
  });
  after(() => store.drop());

  it("getTables > when another store's schema is dropped after the statement's snapshot was taken > lists this store's tables, without failing", async () => {
    const neighbour = await createTestDatabase('postgres');
    // A repeatable-read snapshot taken before the drop stands for a statement that began before it.
    const tables = await store.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await neighbour.drop();
        return trx.introspection.getTables({ withInternalKyselyTables: true });
      });
    assert.deepEqual([...new Set(tables.map((table) => table.schema))], [schema]);
    assert.ok(tables.some((table) => table.name === 'kysely_migration'));
    assert.ok(tables.some((table) => table.name === 'pets'));
  });

  it("getTables > without Kysely's own tables > lists the store's tables and their columns as Kysely's introspector does", async () => {
    const tables = await store.db.introspection.getTables();
    assert.equal(tables.filter((table) => table.name.startsWith('kysely_')).length, 0);
    const pets = tables.find((table) => table.name === 'pets');
    assert.deepEqual(
      pets?.columns.filter((column) => ['id', 'name'].includes(column.name)),
      [
        { name: 'id', dataType: 'int8', dataTypeSchema: 'pg_catalog', isNullable: false, isAutoIncrementing: true, hasDefaultValue: false, comment: undefined },
        {
          name: 'name',
          dataType: 'text',
          dataTypeSchema: 'pg_catalog',
          isNullable: false,
          isAutoIncrementing: false,
          hasDefaultValue: false,
          comment: undefined,
        },
      ],
    );
  });
});
