/**
 * The store lock on PostgreSQL (src/db/postgres/store-lock.ts): what a serving process does when
 * its lock connection cannot be opened or is lost, so that an import never loads a store that a
 * process still serves from its caches. A real PostgreSQL; a TCP server that never answers stands
 * for a hung proxy.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { holdStoreShared, lockStoreExclusively } from '../../../src/db/postgres/store-lock.js';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../../helpers/test-db.js';
import { waitUntil } from '../../helpers/wait-for.js';

/** The backend holding this store's shared lock, found from another connection. */
async function lockHolder(admin: pg.Client, schema: string): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>(
    `select pid from pg_locks where locktype = 'advisory' and mode = 'ShareLock' and classid = 1634956399
       and objid = (('x' || left(md5($1), 8))::bit(32)::int)::oid`,
    [schema],
  );
  assert.equal(rows.length, 1, 'one process holds the store lock shared');
  return rows[0]!.pid;
}

function signal<T = void>(): { promise: Promise<T>; fire: (value: T) => void } {
  let fire!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (fire = resolve));
  return { promise, fire };
}

// A lost wake-up would hang a test: each fails at its timeout instead.
describeOnPostgres('the store lock (PostgreSQL)', { timeout: 60_000 }, () => {
  let store: TestDatabase;
  let schema: string;
  let admin: pg.Client;
  before(async () => {
    store = await createTestDatabase('postgres');
    schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]!.schema;
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  after(async () => {
    await admin.end();
    await store.drop();
  });

  it('a server that takes the connection and never answers > the lock is refused after the connect budget, not awaited forever', async () => {
    const silent = net.createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const url = `postgres://postgres@127.0.0.1:${port}/test`;
      await assert.rejects(holdStoreShared(url, { connectMs: 500, warn: () => {}, replaced: () => {} }), /timeout/i);
    } finally {
      silent.close();
    }
  });

  it('the lock connection killed > opened again, and an import is refused again', async () => {
    const again = signal();
    const lock = await holdStoreShared(store.url, {
      connectMs: 5000,
      warn: (message) => /again: imports see this process/.test(message) && again.fire(),
      replaced: (error) => assert.fail(`replaced: ${error.message}`),
    });
    try {
      await admin.query('select pg_terminate_backend($1)', [await lockHolder(admin, schema)]);
      await again.promise;
      const claimed = await store.db.transaction().execute((trx) => lockStoreExclusively(trx));
      assert.equal(claimed, false, 'an import got the store of a serving process');
    } finally {
      await lock.release();
    }
  });

  it('the lock connection killed while an import holds the lock > the process is told the store is being replaced', async () => {
    const replaced = signal<Error>();
    const lock = await holdStoreShared(store.url, { connectMs: 5000, warn: () => {}, replaced: replaced.fire });
    const importer = new pg.Client({ connectionString: store.url });
    await importer.connect();
    try {
      const holder = await lockHolder(admin, schema);
      await importer.query('begin');
      // The import waits for the exclusive lock behind the serving process; PostgreSQL hands it
      // over the moment that process's connection ends, before the process can take it back.
      const importerPid = (await importer.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const taken = importer.query(`select pg_advisory_xact_lock(1634956399, ('x' || left(md5(current_schema()), 8))::bit(32)::int)`);
      await waitUntil(
        async () => (await admin.query(`select 1 from pg_locks where locktype = 'advisory' and not granted and pid = $1`, [importerPid])).rowCount === 1,
        { deadlineMs: 30_000, what: 'the import to wait for the store lock' },
      );
      await admin.query('select pg_terminate_backend($1)', [holder]);
      await taken;
      assert.match((await replaced.promise).message, /an import is loading this store/);
      await importer.query('rollback');
    } finally {
      await importer.end();
      await lock.release();
    }
  });
});
