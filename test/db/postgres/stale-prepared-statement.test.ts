/**
 * A prepared statement made stale (PostgreSQL's 0A000, recognised in one place, postgres/deadline.ts:
 * not any "feature not supported") or forgotten by the server (26000, after a pooler's DISCARD ALL).
 * The driver prepares it again outside a transaction; inside one the failure has ended the
 * transaction, the error reaches the caller as the database being unavailable, and the connection is dropped.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import { isStalePreparedStatement } from '../../../src/db/postgres/prepared-statements.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';
import { rejection } from '../../helpers/rejection.js';

/** The error a piece of work throws, as the service's driver hands it over. */
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
    const error = await rejection(handle.db.transaction().execute((trx) => probe().execute(trx)));
    assert.equal((error as { code?: string }).code, '0A000');
    assert.equal(isStalePreparedStatement(error), true);
    assert.equal(isDatabaseUnavailable(error), true);
  });

  it('a statement the server forgot (DEALLOCATE ALL, as a pooler resets a connection) > prepared again outside a transaction; inside one unavailable, and the connection dropped', async () => {
    const probe = () => sql<{ a: number }>`select ${1}::integer as a`;
    await probe().execute(handle.db);
    await sql`deallocate all`.execute(handle.db);
    assert.deepEqual((await probe().execute(handle.db)).rows, [{ a: 1 }]);

    const error = await rejection(
      handle.db.transaction().execute(async (trx) => {
        await sql`deallocate all`.execute(trx);
        return probe().execute(trx);
      }),
    );
    assert.equal((error as { code?: string }).code, '26000');
    assert.equal(isDatabaseUnavailable(error), true);
    // The connection that held the forgotten name was dropped: the next transaction prepares anew.
    assert.deepEqual(await handle.db.transaction().execute(async (trx) => (await probe().execute(trx)).rows), [{ a: 1 }]);
  });

  it('another feature_not_supported (0A000) > is neither', async () => {
    const error = await rejection(sql`select count(*) from (values (1)) as v(a) for update`.execute(handle.db));
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
