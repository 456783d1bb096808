/**
 * Migration 2026-11-27T01-drop-key-prefix-index: the index on the usable keys' display prefixes,
 * which nothing reads since the service keeps their hashes instead, is gone after it, on both
 * databases, and its `down` makes it again; keys made before it keep working.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../src/db/dialect.js';
import { migrateUpTo } from '../../src/db/migrate.js';
import * as dropKeyPrefixIndex from '../../src/db/migrations/2026-11-27T01-drop-key-prefix-index.js';
import { createKeyVerifier, issueApiKey } from '../../src/keys/keys.service.js';
import { describeMigration } from '../helpers/test-db.js';

const INDEX = 'api_keys_usable_prefix_idx';

/** Whether the index exists in the database's current schema. */
async function hasIndex(db: Kysely<any>, name: string): Promise<boolean> {
  const found = isPostgres(db)
    ? await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(db)
    : await sql`select 1 from sqlite_master where type = 'index' and name = ${name}`.execute(db);
  return found.rows.length > 0;
}

describeMigration('2026-11-27T01-drop-key-prefix-index', { poolMax: 1 }, (_dialect, empty) => {
  it('on a store the previous release left > drops the index, keeps the keys working, and down makes the index again', async () => {
    await migrateUpTo(empty.db, '2026-11-27T00-full-case-folding');
    assert.equal(await hasIndex(empty.db, INDEX), true, 'the previous release has the index');
    const { key } = await issueApiKey(empty.db, { name: 'made before' });

    // Up to this migration only: later ones may follow it.
    assert.deepEqual(await migrateUpTo(empty.db, '2026-11-27T01-drop-key-prefix-index'), ['2026-11-27T01-drop-key-prefix-index']);
    assert.equal(await hasIndex(empty.db, INDEX), false);
    const verifier = createKeyVerifier(empty.db, { cacheTtlMs: 0 });
    assert.notEqual((await verifier.verify(key)).key, undefined, 'a key made before the migration still verifies');

    await empty.db.transaction().execute((trx) => dropKeyPrefixIndex.down(trx));
    assert.equal(await hasIndex(empty.db, INDEX), true, 'down makes it again');
    await empty.db.transaction().execute((trx) => dropKeyPrefixIndex.up(trx));
    assert.equal(await hasIndex(empty.db, INDEX), false, 'and up drops it again');
  });
});
