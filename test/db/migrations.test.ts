import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Migrator } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { currentSchemaOf } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import * as initial from '../../src/db/migrations/2026-11-25T00-initial.js';
import { getPet, updatePet } from '../../src/pets/pets.service.js';
import { createEmptyDatabaseUrl, ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `migration 2026-11-26T02-pet-versions on ${dialect}`, {}, () => {
    let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
    let handle: DbHandle;
    before(async () => {
      place = await createEmptyDatabaseUrl(dialect);
      handle = createDb(place.url, { poolMax: 1 });
    });
    after(async () => {
      await handle.close();
      await place.remove();
    });

    it('on a database with pets made before it > gives each version 1, and updates then count from there', async () => {
      // The database as the previous release left it: only the first migration, and a stored pet.
      const migrationTableSchema = await currentSchemaOf(handle.db);
      const previous = new Migrator({
        db: handle.db,
        provider: { getMigrations: async () => ({ '2026-11-25T00-initial': initial }) },
        ...(migrationTableSchema ? { migrationTableSchema } : {}),
      });
      assert.equal((await previous.migrateToLatest()).error, undefined);
      const { id } = await handle.db
        .insertInto('pets')
        .values({ name: 'Old', categoryId: 1, status: 'sold', createdAt: 1 } as never)
        .returning('id')
        .executeTakeFirstOrThrow();

      // Later migrations may follow it; this one must be among those applied now.
      assert.ok((await migrateToLatest(handle.db)).includes('2026-11-26T02-pet-versions'));
      assert.deepEqual(await getPet(handle.db, id), { pet: { id, name: 'Old', categoryId: 1, status: 'sold' }, version: 1 });
      assert.equal((await updatePet(handle.db, id, { status: 'available' }, { versions: [1] })).version, 2);
    });
  });
}
