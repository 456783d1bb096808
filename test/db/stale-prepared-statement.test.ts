/**
 * PostgreSQL's 0A000 is recognised in one place (postgres-deadline.ts): a stale prepared
 * statement, not any "feature not supported", is what the pool runs again unprepared and what
 * counts as the database being unavailable.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../src/db/create-db.js';
import { isStalePreparedStatement } from '../../src/db/postgres-deadline.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../helpers/test-db.js';

/** The error a statement throws, as the driver hands it over. */
async function errorOf(client: pg.Client, query: pg.QueryConfig | string): Promise<unknown> {
  try {
    await client.query(query);
  } catch (error) {
    return error;
  }
  assert.fail(`${JSON.stringify(query)} succeeded`);
}

describeOnPostgres('isStalePreparedStatement (PostgreSQL)', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let client: pg.Client;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    client = new pg.Client({ connectionString: place.url });
    await client.connect();
  });
  after(async () => {
    await client.end();
    await place.remove();
  });

  it('a table changed under a prepared statement > is stale, and unavailable', async () => {
    await client.query('create temporary table stale_probe (a integer)');
    const prepared = { name: 'stale_probe_select', text: 'select * from stale_probe where a = $1', values: [1] };
    await client.query(prepared);
    await client.query('alter table stale_probe add column b integer');
    const error = await errorOf(client, prepared);
    assert.equal((error as { code?: string }).code, '0A000');
    assert.equal(isStalePreparedStatement(error), true);
    assert.equal(isDatabaseUnavailable(error), true);
  });

  it('another feature_not_supported (0A000) > is neither', async () => {
    const error = await errorOf(client, 'select count(*) from (values (1)) as v(a) for update');
    assert.equal((error as { code?: string }).code, '0A000');
    assert.equal(isStalePreparedStatement(error), false);
    assert.equal(isDatabaseUnavailable(error), false);
  });
});

it('isStalePreparedStatement > a server whose messages are translated > is still recognised by its routine', () => {
  assert.equal(isStalePreparedStatement({ code: '0A000', routine: 'RevalidateCachedQuery', message: 'le plan en cache ne doit pas modifier le type de résultat' }), true);
  assert.equal(isStalePreparedStatement({ code: '0A000', message: 'cached plan must not change result type' }), true);
  assert.equal(isStalePreparedStatement({ code: '57014', routine: 'RevalidateCachedQuery' }), false);
  assert.equal(isStalePreparedStatement(null), false);
});
