/**
 * PostgreSQL over TLS (a TLS-terminating proxy in front of the test server), and what a
 * DATABASE_URL's TLS parameters mean: pg's meanings, which the service had before its own driver.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import { NO_OPENSSL } from '../../helpers/machine-tools.js';
import { startTlsProxy, type TlsProxy } from '../../helpers/tls-proxy.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';
import { waitUntil } from '../../helpers/wait-for.js';

describeOnPostgres('PostgreSQL over TLS', {}, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let direct: DbHandle;
  let proxy: TlsProxy;
  const handles: DbHandle[] = [];

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    direct = createDb(place.url, { poolMax: 1 });
    const url = new URL(place.url);
    if (!NO_OPENSSL) proxy = await startTlsProxy({ host: url.hostname, port: Number(url.port || 5432) });
  });
  after(async () => {
    for (const handle of handles) await handle.close();
    await direct?.close();
    await proxy?.close();
    await place?.remove();
  });

  /** The service's database through the TLS proxy, with these URL parameters. */
  const overTls = (parameters: Record<string, string>) => {
    const url = new URL(place.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    const handle = createDb(url.toString(), { poolMax: 1, statementTimeoutMs: 2000 });
    handles.push(handle);
    return handle;
  };
  const selectOne = async (handle: DbHandle) => (await sql<{ one: number }>`select ${1}::int as one`.execute(handle.db)).rows[0]?.one;

  it(
    "Attack: a transaction's TLS connection ended by the server fails its next statement as unavailable, and the process lives",
    { skip: NO_OPENSSL },
    async () => {
      const handle = overTls({ sslmode: 'verify-full', sslrootcert: proxy.certPath });
      const failure = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!;
          await sql`select pg_terminate_backend(${pid})`.execute(direct.db);
          const gone = async () =>
            (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(direct.db)).rows[0]!.n === 0;
          await waitUntil(gone, { deadlineMs: 5000, what: 'the server to end the session' });
          return sql`select ${2}::int`.execute(trx).then(
            () => undefined,
            (error: unknown) => error,
          );
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.ok(failure, 'the transaction failed');
      assert.ok(isDatabaseUnavailable(failure), `answered 503, not 500: ${String(failure)}`);
      assert.equal(await selectOne(handle), 1, 'a new connection serves the next statement');
    },
  );

  it('Attack: sslmode=require checks the server certificate, as pg did; no-verify does not', { skip: NO_OPENSSL }, async () => {
    const failure = await selectOne(overTls({ sslmode: 'require' })).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.match(String((failure as { code?: unknown })?.code), /SELF_SIGNED|UNABLE_TO_VERIFY/);
    assert.equal(await selectOne(overTls({ sslmode: 'require', sslrootcert: proxy.certPath })), 1);
    assert.equal(await selectOne(overTls({ sslmode: 'no-verify' })), 1);
  });

  it('Attack: sslrootcert is read as a file, not sent to the server as a setting', { skip: NO_OPENSSL }, async () => {
    const url = new URL(place.url);
    url.searchParams.set('sslmode', 'disable');
    url.searchParams.set('sslrootcert', proxy.certPath);
    const handle = createDb(url.toString(), { poolMax: 1 });
    handles.push(handle);
    assert.equal(await selectOne(handle), 1);
  });
});
