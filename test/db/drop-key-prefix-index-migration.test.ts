/**
 * Migration 2026-11-27T01-drop-key-prefix-index: the index on the usable keys' display prefixes,
 * which nothing reads since the service keeps their hashes instead, is gone after it, on both
 * databases, and its `down` makes it again; keys made before it keep working.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { isPostgres } from '../../src/db/dialect.js';
import { migrateUpTo } from '../../src/db/migrate.js';
import * as dropKeyPrefixIndex from '../../src/db/migrations/2026-11-27T01-drop-key-prefix-index.js';
import { createKeyVerifier, issueApiKey } from '../../src/keys/keys.service.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';

const INDEX = 'api_keys_usable_prefix_idx';

/** Whether the index exists in the database's current schema. */
async function hasIndex(db: Kysely<any>, name: string): Promise<boolean> {
  const found = isPostgres(db)
    ? await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(db)
    : await sql`select 1 from sqlite_master where type = 'index' and name = ${name}`.execute(db);
  return found.rows.length > 0;
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `migration 2026-11-27T01-drop-key-prefix-index on ${dialect}`, {}, () => {
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

    it('on a store the previous release left > drops the index, keeps the keys working, and down makes the index again', async () => {
      await migrateUpTo(handle.db, '2026-11-27T00-full-case-folding');
      assert.equal(await hasIndex(handle.db, INDEX), true, 'the previous release has the index');
      const { key } = await issueApiKey(handle.db, { name: 'made before' });

      // Up to this migration only: later ones may follow it.
      assert.deepEqual(await migrateUpTo(handle.db, '2026-11-27T01-drop-key-prefix-index'), ['2026-11-27T01-drop-key-prefix-index']);
      assert.equal(await hasIndex(handle.db, INDEX), false);
      const verifier = createKeyVerifier(handle.db, { cacheTtlMs: 0 });
      assert.notEqual((await verifier.verify(key)).key, undefined, 'a key made before the migration still verifies');

      await handle.db.transaction().execute((trx) => dropKeyPrefixIndex.down(trx));
      assert.equal(await hasIndex(handle.db, INDEX), true, 'down makes it again');
      await handle.db.transaction().execute((trx) => dropKeyPrefixIndex.up(trx));
      assert.equal(await hasIndex(handle.db, INDEX), false, 'and up drops it again');
    });
  });
}
