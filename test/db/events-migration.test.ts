/**
 * Migration 2026-11-27T02-events on a store the previous release left: pets made before it keep
 * working and record events from then on; `down` removes the table and its triggers, and writes go
 * on without them; the ids never go back after a purge (AUTOINCREMENT, an identity).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrateUpTo } from '../../src/db/migrate.js';
import * as events from '../../src/db/migrations/2026-11-27T02-events.js';
import { createPet, updatePet } from '../../src/pets/pets.service.js';
import { describeMigration } from '../helpers/test-db.js';

describeMigration('2026-11-27T02-events', { poolMax: 1 }, (_dialect, empty) => {
  const stored = () => empty.db.selectFrom('events').select(['id', 'type', 'changed']).orderBy('id').execute();

  it('on a store with pets > records their changes from then on; down removes table and triggers; ids are never reused after a purge', async () => {
    await migrateUpTo(empty.db, '2026-11-27T01-drop-key-prefix-index');
    const old = await createPet(empty.db, { name: 'Old', categoryId: 1 });
    assert.ok((await migrateUpTo(empty.db, '2026-11-27T02-events')).includes('2026-11-27T02-events'));
    assert.deepEqual(await stored(), []);
    await updatePet(empty.db, old.pet.id, { status: 'sold' });
    const [first] = await stored();
    assert.deepEqual({ type: first!.type, changed: first!.changed }, { type: 'pet.updated', changed: '["status"]' });

    // A purge of every event, then a new one: its id is above the purged ones.
    await empty.db.deleteFrom('events').execute();
    await createPet(empty.db, { name: 'New', categoryId: 1 });
    const [next] = await stored();
    assert.ok(next!.id > first!.id, `id ${next!.id} reused after purging ${first!.id}`);

    await events.down(empty.db);
    await createPet(empty.db, { name: 'Without', categoryId: 1 });
    await assert.rejects(stored());
    await events.up(empty.db);
    await createPet(empty.db, { name: 'Again', categoryId: 1 });
    assert.deepEqual(
      (await stored()).map((event) => event.type),
      ['pet.created'],
    );
  });
});
