import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Kysely, Migrator, sql } from 'kysely';
import { currentSchemaOf } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import * as initial from '../../src/db/migrations/2026-11-25T00-initial.js';
import { petNameKey } from '../../src/pets/pet-name-key.js';
import { describeMigration } from '../helpers/test-db.js';

/** Brings an empty database to the schema of the first release only, as an existing store has it. */
async function migrateToFirstRelease(db: Kysely<any>): Promise<void> {
  const migrationTableSchema = await currentSchemaOf(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ '2026-11-25T00-initial': initial }) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const result = await migrator.migrateToLatest();
  assert.equal(result.error, undefined);
}

const NAMES = ['Ñandú', 'Straße', 'Ｒｅｘ', 'Ελένη', 'ΟΔΟΣ', '🐈 Tom', 'İris', 'plain'];

describeMigration('2026-11-26T03-pet-search', {}, (dialect, empty) => {
  it('on a store with pets > fills in every name key as the service computes it, across batches', async () => {
    await migrateToFirstRelease(empty.db);
    // More rows than one backfill batch, written as the first release wrote them (no key).
    const rows = Array.from({ length: 600 }, (_, i) => ({ name: `${NAMES[i % NAMES.length]} ${i}`, category_id: 1, status: 'available', created_at: 0 }));
    for (let i = 0; i < rows.length; i += 100)
      await (empty.db as Kysely<any>)
        .withoutPlugins()
        .insertInto('pets')
        .values(rows.slice(i, i + 100))
        .execute();

    await migrateToLatest(empty.db);

    const stored = await empty.db.selectFrom('pets').select(['name', 'nameKey']).orderBy('id').execute();
    assert.equal(stored.length, 600);
    for (const row of stored) assert.equal(row.nameKey, petNameKey(row.name), row.name);
    assert.equal(stored.filter((row) => row.nameKey.startsWith('strasse')).length, 75);
  });

  if (dialect === 'postgres') {
    it('on postgres > compares name keys in the "C" collation, code-point order whatever the database locale', async () => {
      const { rows } = await sql<{ collation: string | null }>`
        select collation_name as collation from information_schema.columns
        where table_schema = current_schema() and table_name = 'pets' and column_name = 'name_key'`.execute(empty.db);
      assert.deepEqual(rows, [{ collation: 'C' }]);
    });
  }
});
