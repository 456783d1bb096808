/**
 * The driver's direct read (db/postgres/direct-read.ts), the way of every compiled read outside a
 * transaction, keeps each promise of Kysely's way through a connection: one deadline per read and
 * its connection closed when it passes, a lost connection failing as unavailable, a statement
 * refused in its prepared form prepared anew, a connection in doubt dropped, and a connection
 * that answered kept.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import { DEADLINE_CODE } from '../../../src/db/postgres/deadline.js';
import { engineOf } from '../../../src/db/engine.js';
import { startDatabaseProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';
import { waitUntil } from '../../helpers/wait-for.js';
import { rejection } from '../../helpers/rejection.js';

describeOnPostgres('direct reads through the PostgreSQL driver', {}, () => {
  const STATEMENT_TIMEOUT_MS = 300;
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let proxy: TcpProxy & { url: string };
  let handle: DbHandle;
  let read: (text: string, parameters: unknown[]) => Promise<unknown[]>;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    proxy = await startDatabaseProxy(place.url);
    // One connection: every read below shares it, unless it was closed.
    handle = createDb(proxy.url, { poolMax: 1, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    const directRead = engineOf(handle.db)!.directRead!;
    read = async (text, parameters) => (await directRead(text, parameters))!;
  });
  after(async () => {
    await handle?.close();
    await proxy?.close();
    await place?.remove();
  });

  const backendPid = async () => ((await read('select pg_backend_pid() as pid where $1::int = 1', [1])) as [{ pid: number }])[0].pid;

  it('answers the rows, named as Kysely names them, and keeps the connection', async () => {
    const before = await backendPid();
    assert.deepEqual(await read('select $1::int as some_number', [7]), [{ someNumber: 7 }]);
    assert.equal(await backendPid(), before);
  });

  it('rows with JSON, arrays and nulls > named exactly as Kysely names them, nested names included', async () => {
    const text = `select $1::int as some_number, null as no_value, json_build_object('inner_name', 1, 'list_of', json_build_array(json_build_object('deep_name', 2))) as some_json, array[1, 2] as some_list`;
    const kysely = await sql.raw(text.replace('$1', '7')).execute(handle.db);
    assert.deepEqual(await read(text, [7]), kysely.rows);
    assert.deepEqual(kysely.rows, [{ someNumber: 7, noValue: null, someJson: { innerName: 1, listOf: [{ deepName: 2 }] }, someList: [1, 2] }]);
  });

  it('columns whose names meet (a duplicate, camel-cased alike, integer-like) > the same row, keys in the same order, as Kysely gives', async () => {
    for (const text of [
      `select 1 as a, 2 as a, 'x' as a_b, 'y' as "aB", 3 as b where $1::int = 1`,
      `select 'x' as "1_", 'y' as "1" where $1::int = 1`,
      `select 'x' as b, 'y' as "2", 'z' as "1", json_build_object('inner_name', 1) as a where $1::int = 1`,
      `select g as some_number from generate_series(1, 3) as g where $1::int = 1`,
    ]) {
      const kysely = await sql.raw(text.replace('$1', '1')).execute(handle.db);
      const direct = await read(text, [1]);
      assert.deepEqual(direct, kysely.rows, text);
      assert.deepEqual(
        direct.map((row) => Object.keys(row as object)),
        kysely.rows.map((row) => Object.keys(row as object)),
        text,
      );
    }
  });

  it("a text of several statements without parameters > the last one's rows, as Kysely gives", async () => {
    const text = 'select 1 as a; select 2 as some_b';
    assert.deepEqual(await read(text, []), (await sql.raw(text).execute(handle.db)).rows);
    assert.deepEqual(await read(text, []), [{ someB: 2 }]);
  });

  it('when the read gets no answer in time > it fails as unavailable, and its connection is closed instead of used again', async () => {
    const before = await backendPid();
    proxy.stall();
    const error = await rejection(read('select $1::int as one', [1]));
    assert.equal((error as { code?: string }).code, DEADLINE_CODE);
    assert.equal(isDatabaseUnavailable(error), true);
    await proxy.restore();
    assert.notEqual(await backendPid(), before);
  });

  it('when the read fails otherwise > the error is the server’s, and the connection stays in use', async () => {
    const before = await backendPid();
    const error = await rejection(read('select 1 / $1::int', [0]));
    assert.equal((error as { code?: string }).code, '22012');
    assert.equal(isDatabaseUnavailable(error), false);
    assert.equal(await backendPid(), before);
  });

  const terminatedUnder = (way: string, sleep: (seconds: number) => Promise<unknown>): void => {
    void it(`when the connection is lost under a statement (${way}) > it fails as unavailable, and the next read has a new connection`, async () => {
      const before = await backendPid();
      const sleeping = rejection(sleep(0.25));
      const killer = createDb(place.url, { poolMax: 1 });
      try {
        await waitUntil(
          async () =>
            (
              await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${before} and query like 'select pg_sleep%'`.execute(
                killer.db,
              )
            ).rows[0]!.n === 1,
          { deadlineMs: 5000, what: 'the read never reached the server' },
        );
        await sql`select pg_terminate_backend(${before})`.execute(killer.db);
      } finally {
        await killer.close();
      }
      const error = await sleeping;
      assert.equal(isDatabaseUnavailable(error), true, `not unavailable: ${String(error)}`);
      assert.notEqual(await backendPid(), before);
    });
  };
  terminatedUnder('a direct read', (seconds) => read('select pg_sleep($1) as slept', [seconds]));
  terminatedUnder("Kysely's way", (seconds) => sql`select pg_sleep(${seconds}) as slept`.execute(handle.db));

  it('a statement the server forgot (DEALLOCATE ALL) or made stale (a table changed) > prepared anew, on the same connection', async () => {
    const before = await backendPid();
    assert.deepEqual(await read('select $1::integer as a', [1]), [{ a: 1 }]);
    await sql`deallocate all`.execute(handle.db);
    assert.deepEqual(await read('select $1::integer as a', [1]), [{ a: 1 }]);

    await sql`create temporary table stale_direct (a integer)`.execute(handle.db);
    assert.deepEqual(await read('select * from stale_direct where a = $1', [1]), []);
    await sql`alter table stale_direct add column b integer`.execute(handle.db);
    await sql`insert into stale_direct values (1, 2)`.execute(handle.db);
    assert.deepEqual(await read('select * from stale_direct where a = $1', [1]), [{ a: 1, b: 2 }]);
    assert.equal(await backendPid(), before);
  });

  it('a value pg cannot send (a BigInt inside an object) > fails that read only; the same text with a good value then runs', async () => {
    const text = 'select $1::jsonb as v /* direct: serialization */';
    assert.match(String(await rejection(read(text, [{ a: 1n }]))), /serialize a BigInt/);
    assert.deepEqual(await read(text, [{ a: 1 }]), [{ v: { a: 1 } }]);
  });

  it('a row pg cannot convert (an int8 beyond 2^53) > fails that read; a statement without parameters keeps its connection', async () => {
    const before = await backendPid();
    assert.match(String(await rejection(read('select 9007199254740993::int8 as big', []))), /beyond 2\^53-1/);
    assert.equal(await backendPid(), before);
  });

  it('while the one connection is held by a transaction > the read waits, and fails as unavailable at its deadline', async () => {
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let began!: () => void;
    const inTransaction = new Promise<void>((resolve) => (began = resolve));
    const transaction = handle.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        began();
        await held;
      })
      .catch(() => {});
    await inTransaction;
    const error = await rejection(read('select $1::int as three', [3]));
    assert.equal((error as { code?: string }).code, DEADLINE_CODE);
    finish();
    await transaction;
    assert.deepEqual(await read('select $1::int as four', [4]), [{ four: 4 }]);
  });
});
