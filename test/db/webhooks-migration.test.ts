/**
 * Migration 2026-11-27T04-webhooks on a store the previous release left: a key that held every
 * scope of then gets the two webhook scopes, as a key made without --scope has every scope now; a
 * key with fewer keeps its own; `down` takes them back from the first only.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import * as webhooks from '../../src/db/migrations/2026-11-27T04-webhooks.js';
import { insertApiKey } from '../../src/keys/keys.repository.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `migration 2026-11-27T04-webhooks on ${dialect}`, {}, () => {
    let place: { url: string; remove(): Promise<void> };
    let handle: DbHandle;
    before(async () => {
      place = await createEmptyDatabaseUrl(dialect);
      handle = createDb(place.url, { poolMax: 1 });
    });
    after(async () => {
      await handle.close();
      await place.remove();
    });

    const keyWith = (name: string, scopes: string) =>
      insertApiKey(handle.db, { name, prefix: name.slice(0, 8).padEnd(8, '0'), secretHash: `hash-${name}`, createdAt: 1, expiresAt: null, revokedAt: null, scopes });
    const scopesOf = async () => Object.fromEntries((await handle.db.selectFrom('apiKeys').select(['name', 'scopes']).execute()).map((key) => [key.name, key.scopes]));

    it('keys of the previous release > those with all four scopes get webhooks:read and webhooks:write; the others keep theirs; down reverts', async () => {
      await migrateUpTo(handle.db, '2026-11-27T03-events-retention');
      await keyWith('everything', 'pets:read pets:write orders:read orders:write');
      await keyWith('reader', 'pets:read orders:read');
      await keyWith('petsonly', 'pets:read pets:write');
      assert.ok((await migrateToLatest(handle.db)).includes('2026-11-27T04-webhooks'));
      const granted = {
        everything: 'pets:read pets:write orders:read orders:write webhooks:read webhooks:write',
        reader: 'pets:read orders:read',
        petsonly: 'pets:read pets:write',
      };
      assert.deepEqual(await scopesOf(), granted);

      await webhooks.down(handle.db);
      assert.deepEqual(await scopesOf(), { ...granted, everything: 'pets:read pets:write orders:read orders:write' });
      await webhooks.up(handle.db);
      assert.deepEqual(await scopesOf(), granted);
    });
  });
}
