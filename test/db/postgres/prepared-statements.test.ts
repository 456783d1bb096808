/**
 * Which PostgreSQL statements are prepared (db/postgres/prepared-statements.ts): every text with
 * parameters, once per connection, up to a bounded number of texts. The database side of a table
 * changed under a prepared statement is in postgres-named-statements.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { MAX_PREPARED_TEXTS, statementNameOf } from '../../../src/db/postgres/prepared-statements.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';

describeOnPostgres('prepared statements on a connection (PostgreSQL)', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let handle: DbHandle;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    // One connection, so each statement below runs on the same session.
    handle = createDb(place.url, { poolMax: 1 });
  });
  after(async () => {
    await handle.close();
    await place.remove();
  });

  it('a statement with parameters run twice > is prepared once on the connection, not parsed at each run', async () => {
    const probe = (value: number) => sql<{ answer: number }>`select ${value}::int + 1 as answer /* prepared once */`.execute(handle.db);
    assert.deepEqual((await probe(1)).rows, [{ answer: 2 }]);
    assert.deepEqual((await probe(2)).rows, [{ answer: 3 }]);
    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from pg_prepared_statements where statement like ${'%prepared once%'} and not from_sql`.execute(handle.db);
    assert.deepEqual(rows, [{ count: 1 }]);
  });
});

// Last: it fills the process's bound of prepared texts.
describe('statementNameOf', () => {
  it('names at most MAX_PREPARED_TEXTS texts; the rest run unprepared, the prepared ones keep their name', () => {
    const first = statementNameOf('select 1 where $1::int = 1');
    assert.ok(first);
    for (let i = 0; i < MAX_PREPARED_TEXTS; i += 1) statementNameOf(`select ${i} where $1::int = 1 -- filler`);
    assert.equal(statementNameOf('select 2 where $1::int = 1 -- one too many'), undefined);
    assert.equal(statementNameOf('select 1 where $1::int = 1'), first);
  });
});
