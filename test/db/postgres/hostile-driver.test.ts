/**
 * Hostile review of the PostgreSQL driver (db/postgres/driver.ts, direct-read.ts, link.ts, pool.ts,
 * deadline.ts): a failing database and network against one pg pool. Each test names the
 * promise it checks (docs/operations.md, "Connections and timeouts", or the driver's header).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import { DEADLINE_CODE } from '../../../src/db/postgres/deadline.js';
import { startDatabaseProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';
import { withDeadline } from '../../helpers/wait-for.js';
import { rejection } from '../../helpers/rejection.js';

/** The error a piece of work throws. */
describeOnPostgres('hostile: named statements on a connection (PostgreSQL)', {}, () => {
  const STATEMENT_TIMEOUT_MS = 300;
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let proxy: TcpProxy & { url: string };
  let handle: DbHandle;
  /** Another instance's connection, which changes tables under the service's prepared statements. */
  let other: pg.Client;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    proxy = await startDatabaseProxy(place.url);
    // One connection: every statement below runs on the same session, unless it was closed.
    handle = createDb(proxy.url, { poolMax: 1, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    other = new pg.Client({ connectionString: place.url });
    await other.connect();
  });
  after(async () => {
    await other?.end();
    // The proxy first: a statement left waiting on it gets its connection closed and hands it back.
    await proxy?.close();
    await handle?.close();
    await place?.remove();
  });

  it('a table changed under a statement prepared on a connection, met inside a transaction > the transaction run again succeeds (the connection is not left failing every transaction that uses the statement)', async () => {
    await other.query('create table stale_in_transaction (a integer)');
    const probe = () => sql`select * from stale_in_transaction where a = ${1}`;
    await handle.db.transaction().execute((trx) => probe().execute(trx));
    await other.query('alter table stale_in_transaction add column b integer');

    // The first run fails, as documented: 503, the caller may retry.
    const first = await rejection(handle.db.transaction().execute((trx) => probe().execute(trx)));
    assert.equal(isDatabaseUnavailable(first), true, String(first));
    // The retry, on the same (and only) connection, must not fail the same way.
    const second = await handle.db
      .transaction()
      .execute((trx) => probe().execute(trx))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.equal(second, undefined, `the retried transaction failed again: ${String(second)}`);
  });

  it(
    'a stale statement outside a transaction whose DEALLOCATE gets no answer > fails as unavailable at its deadline instead of waiting for TCP keepalive',
    { timeout: 20_000 },
    async () => {
      await other.query('create table stale_deallocate (a integer)');
      const probe = () => sql`select * from stale_deallocate where a = ${1}`;
      await probe().execute(handle.db);
      await other.query('alter table stale_deallocate add column b integer');
      // The DEALLOCATE reaches the server; its answer never comes back.
      const partitioned = proxy.partitionAfter(/deallocate/i);
      const failing = rejection(probe().execute(handle.db));
      try {
        await partitioned;
        const error = await withDeadline(failing, 5 * (STATEMENT_TIMEOUT_MS + 1000), 'the statement is still waiting for its DEALLOCATE, far past its budget');
        assert.equal((error as { code?: string }).code, DEADLINE_CODE, String(error));
      } finally {
        // Healing the link does not wake a connection that waits for an answer lost in the partition: closing the proxy's connections does.
        await proxy.close();
        await proxy.restore();
        await failing;
      }
    },
  );

  it('a parameter pg cannot serialize (a BigInt inside an object) > fails that statement only: the same text with a good value then runs on the connection', async () => {
    const probe = (value: unknown) => sql<{ v: unknown }>`select ${value}::jsonb as v /* hostile: serialization */`.execute(handle.db);
    assert.match(String(await rejection(probe({ a: 1n }))), /serialize a BigInt/);
    // pg sent the statement's Parse and then a Close for it, yet remembers it as prepared: a Bind of a statement that does not exist (26000).
    const answer = await probe({ a: 1 }).then(
      (result) => result.rows,
      (error: unknown) => error,
    );
    assert.deepEqual(answer, [{ v: { a: 1 } }], String(answer));
  });
});

describeOnPostgres('hostile: connections lost while being opened (PostgreSQL)', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let server: net.Server;
  let handle: DbHandle;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    // A balancer or proxy with no server behind it: it accepts the connection, then closes it.
    server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(place.url);
    url.hostname = '127.0.0.1';
    url.port = String((server.address() as net.AddressInfo).port);
    handle = createDb(url.toString(), { poolMax: 1, statementTimeoutMs: 300 });
  });
  after(async () => {
    await handle?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await place?.remove();
  });

  it('a connection closed by the other end before PostgreSQL answered its start-up > fails as unavailable (503), not as a bug (500)', async () => {
    const error = await rejection(sql`select ${1}::int as one`.execute(handle.db));
    assert.equal(isDatabaseUnavailable(error), true, `not unavailable: ${String(error)} (code ${String((error as { code?: unknown }).code)})`);
    assert.equal(handle.poolStats!().total, 0);
  });
});
