/**
 * PostgreSQL's 0A000 is recognised in one place (postgres/deadline.ts): a stale prepared
 * statement, not any "feature not supported", is what counts as the database being unavailable.
 * Postgres.js runs a stale statement again by itself, the one retry there is; inside a
 * transaction the failure has ended the transaction, and the error reaches the caller.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, isDatabaseUnavailable, type DbHandle } from '../../../src/db/create-db.js';
import { isStalePreparedStatement } from '../../../src/db/postgres/deadline.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';

/** The error a piece of work throws, as the service's driver hands it over. */
async function errorOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return assert.fail('the statement succeeded');
}

describeOnPostgres('isStalePreparedStatement (PostgreSQL)', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let handle: DbHandle;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    // One connection: the temporary table and the prepared statement live in its session.
    handle = createDb(place.url, { poolMax: 1 });
  });
  after(async () => {
    await handle.close();
    await place.remove();
  });

  it('a table changed under a prepared statement > runs again by itself outside a transaction; inside one it is stale, and unavailable', async () => {
    await sql`create temporary table stale_probe (a integer)`.execute(handle.db);
    const probe = () => sql`select * from stale_probe where a = ${1}`;
    await probe().execute(handle.db);
    await sql`alter table stale_probe add column b integer`.execute(handle.db);
    assert.deepEqual((await probe().execute(handle.db)).rows, []);

    await probe().execute(handle.db);
    await sql`alter table stale_probe add column c integer`.execute(handle.db);
    const error = await errorOf(handle.db.transaction().execute((trx) => probe().execute(trx)));
    assert.equal((error as { code?: string }).code, '0A000');
    assert.equal(isStalePreparedStatement(error), true);
    assert.equal(isDatabaseUnavailable(error), true);
  });

  it('another feature_not_supported (0A000) > is neither', async () => {
    const error = await errorOf(sql`select count(*) from (values (1)) as v(a) for update`.execute(handle.db));
    assert.equal((error as { code?: string }).code, '0A000');
    assert.equal(isStalePreparedStatement(error), false);
    assert.equal(isDatabaseUnavailable(error), false);
  });
});

it('isStalePreparedStatement > a server whose messages are translated > is still recognised by its routine', () => {
  assert.equal(
    isStalePreparedStatement({ code: '0A000', routine: 'RevalidateCachedQuery', message: 'le plan en cache ne doit pas modifier le type de résultat' }),
    true,
  );
  assert.equal(isStalePreparedStatement({ code: '0A000', message: 'cached plan must not change result type' }), true);
  assert.equal(isStalePreparedStatement({ code: '57014', routine: 'RevalidateCachedQuery' }), false);
  assert.equal(isStalePreparedStatement(null), false);
});
