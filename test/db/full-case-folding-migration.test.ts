/**
 * Migration 2026-11-27T00-full-case-folding: the stored name keys of an existing store are
 * recomputed with Unicode full case folding, so a pet stored before it is found as the service
 * now folds (ẞtrasse by `ss`), on both databases.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import * as fullCaseFolding from '../../src/db/migrations/2026-11-27T00-full-case-folding.js';
import { AppError } from '../../src/errors.js';
import { CASE_FOLDING_TABLE } from '../../src/pets/case-folding-table.js';
import { decodeCaseFolding } from '../../src/pets/case-folding.js';
import { petNameKey } from '../../src/pets/pet-name-key.js';
import { petCursors } from '../../src/pets/pets.cursor.js';
import { listPets } from '../../src/pets/pets.service.js';
import { describeMigration } from '../helpers/test-db.js';

const { nameKeyAsOf20261126, nameKeyAsOf20261127 } = fullCaseFolding;
const SECRET = 'secret';

/** Names whose key the migration changes, and names whose key it keeps. */
const CHANGED = ['ẞtrasse', 'ısık', 'ᏣᎳᎩ', '𝚤'];
const KEPT = ['Straße', 'Ñandú', 'İzmir', 'ΟΔΟΣ', 'plain'];

describeMigration('2026-11-27T00-full-case-folding', {}, (_dialect, empty) => {
  /** The names of every pet a walk of `?name=` finds. */
  const names = async (name: string) => {
    const found: string[] = [];
    for (let cursor: string | undefined, page = 0; page === 0 || cursor !== undefined; page += 1) {
      const result = await listPets(empty.db, { limit: 100, name, ...(cursor === undefined ? {} : { cursor }) }, SECRET);
      found.push(...result.pets.map((pet) => pet.name));
      cursor = result.nextCursor;
    }
    return found.sort();
  };

  it('on a store whose keys the previous release wrote > recomputes them across batches, so ß and ss find ẞtrasse; down restores them', async () => {
    await migrateUpTo(empty.db, '2026-11-26T08-ids-from-transactions');
    // More rows than one batch, with the keys the previous release stored.
    const all = [...CHANGED, ...KEPT];
    const rows = Array.from({ length: 1260 }, (_, i) => {
      const name = `${all[i % all.length]} ${i}`;
      // Ids given (PostgreSQL makes an id from the transaction's, one per transaction).
      return { id: i + 1, name, name_key: nameKeyAsOf20261126(name), category_id: 1, status: 'available', created_at: 0 };
    });
    for (let i = 0; i < rows.length; i += 100)
      await (empty.db as Kysely<any>)
        .withoutPlugins()
        .insertInto('pets')
        .values(rows.slice(i, i + 100))
        .execute();
    assert.deepEqual(await names('ss'), [], 'before: the old key of ẞtrasse is ßtrasse');
    // A cursor the previous release made for a name whose key changes.
    const oldCursor = petCursors(SECRET).encode(1, { name: nameKeyAsOf20261126('ı') });

    assert.ok((await migrateToLatest(empty.db)).includes('2026-11-27T00-full-case-folding'));

    const stored = await empty.db.selectFrom('pets').select(['name', 'nameKey']).orderBy('id').execute();
    assert.equal(stored.length, 1260);
    for (const row of stored) assert.equal(row.nameKey, petNameKey(row.name), row.name);
    const strasse = rows
      .filter((row) => row.name.startsWith('ẞ'))
      .map((row) => row.name)
      .sort();
    assert.equal(strasse.length, 1260 / all.length);
    for (const prefix of ['ss', 'SS', 'ß', 'ẞ', 'ſs', 'ẞTRASSE']) assert.deepEqual(await names(prefix), strasse, prefix);
    assert.deepEqual((await names('ᏣᎳᎩ')).length, 1260 / all.length, 'Cherokee, upper case');
    assert.deepEqual(await names('ꮳꮃꭹ'), await names('ᏣᎳᎩ'), 'Cherokee, lower case');
    assert.ok(
      (await names('izmir')).every((name) => !name.startsWith('İ')),
      'izmir does not find İzmir',
    );
    await assert.rejects(listPets(empty.db, { limit: 10, name: 'ı', cursor: oldCursor }, SECRET), (error: AppError) => error.code === 'invalid_cursor');

    await empty.db.transaction().execute((trx) => fullCaseFolding.down(trx));
    for (const row of await empty.db.selectFrom('pets').select(['name', 'nameKey']).execute())
      assert.equal(row.nameKey, nameKeyAsOf20261126(row.name), row.name);
    await empty.db.transaction().execute((trx) => fullCaseFolding.up(trx));
    for (const row of await empty.db.selectFrom('pets').select(['name', 'nameKey']).execute()) assert.equal(row.nameKey, petNameKey(row.name), row.name);
  });
});

it('the migration’s frozen fold > is the service’s key today, for every character that folds and for any text', () => {
  for (const codePoint of decodeCaseFolding(CASE_FOLDING_TABLE).keys()) {
    const char = String.fromCodePoint(codePoint);
    assert.equal(nameKeyAsOf20261127(`${char}x${char.toLowerCase()}`), petNameKey(`${char}x${char.toLowerCase()}`), `U+${codePoint.toString(16)}`);
  }
  const anyCharacter = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));
  fc.assert(
    fc.property(fc.string({ unit: anyCharacter, maxLength: 30 }), (name) => nameKeyAsOf20261127(name) === petNameKey(name)),
    { seed: 27, numRuns: 500 },
  );
});
