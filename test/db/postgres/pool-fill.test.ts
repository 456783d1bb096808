/**
 * A serving process's pool (src/db/postgres/pool.ts `fillPool`): every connection is opened as it
 * starts and kept however long idle, so a burst after a quiet spell does not wait while the pool
 * opens connections; a server that refuses some leaves the pool opening and closing them on demand. Counted on a real PostgreSQL, in pg_stat_activity,
 * under an application_name of the test's own; a role with a connection limit stands for a server
 * that refuses more connections.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { createPostgresPool, fillPool } from '../../../src/db/postgres/pool.js';
import { createTestDatabase, describeOnPostgres, type TestDatabase } from '../../helpers/test-db.js';
import { spawnService } from '../../helpers/spawn-service.js';
import { waitUntil } from '../../helpers/wait-for.js';

const DEADLINE_MS = 15_000;

/** The store's URL under an application_name of its own (and a role, when given). */
function urlAs(url: string, applicationName: string, role?: string): string {
  const named = new URL(url);
  named.searchParams.set('application_name', applicationName);
  if (role) named.username = role;
  return named.toString();
}

function pool(url: string, options: { max: number; idleMs?: number }): pg.Pool {
  return createPostgresPool(url, { statementTimeoutMs: 5000, idleInTransactionMs: 5000, connectMs: 5000, ...options });
}

describeOnPostgres('a serving process keeps its pool full (PostgreSQL)', { timeout: 60_000 }, () => {
  let store: TestDatabase;
  let admin: pg.Client;
  before(async () => {
    store = await createTestDatabase('postgres');
    admin = new pg.Client({ connectionString: store.url });
    await admin.connect();
  });
  after(async () => {
    await admin.end();
    await store.drop();
  });

  const connectionsOf = async (applicationName: string) =>
    Number((await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where application_name = $1', [applicationName])).rows[0]!.n);

  it('fillPool > opens every connection of the pool and hands them back idle', async () => {
    const name = `fill-${randomBytes(4).toString('hex')}`;
    const filled = pool(urlAs(store.url, name), { max: 4 });
    try {
      // One connection open and idle already: it is counted, not opened again.
      (await filled.connect()).release();
      assert.equal(await fillPool(filled), undefined);
      assert.equal(filled.totalCount, 4);
      assert.equal(filled.idleCount, 4);
      assert.equal(await connectionsOf(name), 4);
      // Full already: nothing more is opened.
      assert.equal(await fillPool(filled), undefined);
      assert.equal(await connectionsOf(name), 4);
    } finally {
      await filled.end();
    }
  });

  it("a kept pool > its connections outlive the idle time that closes an ordinary pool's", async () => {
    const keptName = `kept-${randomBytes(4).toString('hex')}`;
    const kept = pool(urlAs(store.url, keptName), { max: 3, idleMs: 50 });
    const ordinary = pool(urlAs(store.url, `ordinary-${randomBytes(4).toString('hex')}`), { max: 3, idleMs: 50 });
    try {
      assert.equal(await fillPool(kept), undefined);
      // Filled after the kept pool: its idle timers, were there any, would have fired first.
      let removed = 0;
      ordinary.on('remove', () => (removed += 1));
      const clients = await Promise.all([ordinary.connect(), ordinary.connect(), ordinary.connect()]);
      for (const client of clients) client.release();
      await waitUntil(() => removed === 3, { deadlineMs: DEADLINE_MS, what: "the ordinary pool's idle connections were never closed" });
      assert.equal(kept.totalCount, 3);
      assert.equal(await connectionsOf(keptName), 3);
    } finally {
      await kept.end();
      await ordinary.end();
    }
  });

  it('a server that refuses more connections > fillPool answers its refusal, and the pool keeps none open when idle', async () => {
    const role = `limited_${randomBytes(4).toString('hex')}`;
    const name = `limited-${randomBytes(4).toString('hex')}`;
    await admin.query(`create role ${role} login connection limit 2`);
    await admin.query(`grant usage on schema ${(await admin.query<{ s: string }>('select current_schema() as s')).rows[0]!.s} to ${role}`);
    const limited = pool(urlAs(store.url, name, role), { max: 4, idleMs: 50 });
    let removed = 0;
    limited.on('remove', () => (removed += 1));
    try {
      const refusal = await fillPool(limited);
      assert.ok(refusal instanceof Error, 'no refusal answered');
      assert.match(refusal.message, /too many connections/);
      // The two it opened close once idle: the role's slots are free again for the CLI or another instance.
      await waitUntil(() => removed === 2, { deadlineMs: DEADLINE_MS, what: 'the connections opened were kept after the refusal' });
      await waitUntil(async () => (await connectionsOf(name)) === 0, { deadlineMs: DEADLINE_MS, what: 'the server still counts them' });
    } finally {
      await limited.end();
      await admin.query(`drop owned by ${role}`);
      await admin.query(`drop role ${role}`);
    }
  });

  it('animal-store serve > opens DATABASE_POOL_MAX connections (and its store lock) with no request asked of it', async () => {
    const name = `serve-${randomBytes(4).toString('hex')}`;
    const service = await spawnService({ databaseUrl: urlAs(store.url, name), env: { DATABASE_POOL_MAX: '8' } });
    try {
      // Nothing is asked of it: the pool's eight (more than its start ever uses at once), and the store lock's one.
      await waitUntil(async () => (await connectionsOf(name)) === 9, { deadlineMs: DEADLINE_MS, what: 'the pool was never filled' });
      assert.deepEqual(
        service.logs.filter((line) => typeof line.level === 'number' && line.level >= 40).map((line) => line.msg),
        [],
      );
    } finally {
      await service.stop();
    }
  });
});
