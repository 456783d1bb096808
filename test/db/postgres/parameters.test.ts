/**
 * Values bound to PostgreSQL statements (db/postgres-parameters.ts) reach the server as pg sent
 * them: an array as an array, an object as JSON, and read back unchanged, int8 as a number.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../../helpers/test-db.js';

describeOnPostgres('statement parameters (PostgreSQL)', {}, () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase('postgres');
  });
  after(async () => {
    await database.drop();
  });

  const one = async <T>(query: ReturnType<typeof sql<{ value: T }>>) => (await query.execute(database.db)).rows[0]!.value;

  it('an array of texts with quotes, backslashes, commas, braces and nulls > arrives element by element', async () => {
    const texts = ['a"b', 'c\\d', 'e,f', '{g}', '', 'NULL', null];
    // Read back as JSON: Postgres.js reads a NULL element of a text[] answer as the text 'NULL'.
    assert.deepEqual(JSON.parse(await one(sql<{ value: string }>`select array_to_json(${texts}::text[])::text as value`)), texts);
  });

  it('an array of ids > arrives as bigints, and int8 comes back as numbers', async () => {
    assert.deepEqual(
      await one(sql<{ value: number[] }>`select array(select unnest(${[1, 2, 9007199254740991]}::bigint[])) as value`),
      [1, 2, 9007199254740991],
    );
    assert.equal(await one(sql<{ value: number }>`select ${42}::int8 as value`), 42);
    assert.deepEqual(await one(sql<{ value: number[] }>`select ${[]}::bigint[] as value`), []);
  });

  it('an object > arrives as JSON where json is expected; a date as a timestamp; a boolean and null as themselves', async () => {
    assert.deepEqual(await one(sql<{ value: unknown }>`select ${{ a: [1, 'x'], b: null }}::jsonb as value`), { a: [1, 'x'], b: null });
    const at = new Date('2026-11-27T08:00:00.123Z');
    assert.equal((await one(sql<{ value: Date }>`select ${at}::timestamptz as value`)).toISOString(), at.toISOString());
    assert.equal(await one(sql<{ value: boolean }>`select ${true}::boolean as value`), true);
    assert.equal(await one(sql<{ value: null }>`select ${null}::text as value`), null);
  });

  it('an int8 beyond 2^53-1 > fails loudly rather than rounding', async () => {
    await assert.rejects(sql`select 9007199254740993::int8 as value`.execute(database.db), /beyond 2\^53-1/);
  });
});
