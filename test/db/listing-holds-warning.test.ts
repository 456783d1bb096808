/**
 * PG_HOLD_WARN_MS on PostgreSQL (db/listing-holds.ts): a transaction of this database that holds
 * the listings back past it is logged once, counted in a gauge and shown by /readyz; the service's
 * own pooled connections end an idle transaction; under --workers the gauge shows the oldest hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { AggregatorRegistry, Registry } from 'prom-client';
import { createDb } from '../../src/db/create-db.js';
import { HOLD_METRIC, HOLD_WARNING, registerListingHoldMetrics } from '../../src/db/listing-holds.js';
import { sampleValue } from '../helpers/metrics.js';
import { createTestApp } from '../helpers/test-app.js';
import { createEmptyDatabaseUrl, createScratchDatabase, describeOnPostgres } from '../helpers/test-db.js';
import { openSession, beginHolding, untilHoldLogged } from './listing-holds.sessions.js';

describeOnPostgres('PG_HOLD_WARN_MS: a transaction of this database holding the listings back', {}, () => {
  it('held past PG_HOLD_WARN_MS > one log line with pid, application name, state and age, the gauge moves, /readyz shows it and answers 200', async () => {
    const t = await createTestApp('postgres', { database: await createScratchDatabase(), env: { PG_HOLD_WARN_MS: '100' } });
    const holder = await openSession(t.database.url, 'forgotten psql');
    try {
      const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const xid = await beginHolding(holder);
      const line = await untilHoldLogged(t, (entry) => entry.backendPid === pid);
      assert.equal(line.level, 40, 'a warning');
      assert.notEqual(line.pid, pid, "the log line's pid stays the service's own process");
      assert.equal(line.applicationName, 'forgotten psql');
      assert.equal(line.state, 'idle in transaction');
      assert.equal(BigInt(line.xid as string), BigInt(xid) & 0xffffffffn, 'the id pg_stat_activity shows (backend_xid, 32 bits)');
      assert.ok((line.ageMs as number) >= 100, `age ${String(line.ageMs)} ms`);
      assert.equal(line.ageFrom, 'the server');
      // Checked again and again: still one line in this process.
      for (let i = 0; i < 3; i++) await t.app.listingHolds.checkNow();
      assert.equal(t.logs.filter((entry) => entry.msg === HOLD_WARNING).length, 1);

      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.ok((sampleValue(metrics, HOLD_METRIC) ?? 0) >= 0.1, metrics.split('\n').filter((l) => l.includes(HOLD_METRIC)).join('\n'));
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      const body = ready.json() as { status: string; listingsHeldBack?: { oldestAgeMs: number; transactions: { backendPid?: number; ageMs: number }[] } };
      assert.equal(body.status, 'ready');
      assert.ok(body.listingsHeldBack, ready.body);
      assert.ok(body.listingsHeldBack.oldestAgeMs >= 100);
      assert.deepEqual(body.listingsHeldBack.transactions.map((held) => held.backendPid), [pid]);

      await holder.query('rollback');
      await t.app.listingHolds.checkNow();
      assert.equal(sampleValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, HOLD_METRIC), 0);
      assert.deepEqual((await t.app.inject({ method: 'GET', url: '/readyz' })).json(), { status: 'ready' });
    } finally {
      await holder.end();
      await t.close();
    }
  });

  it('a service role without pg_read_all_stats > the line gives the pid and application name, and the age as this process has seen it', async () => {
    const t = await createTestApp('postgres', { database: await createScratchDatabase({ owner: true }), env: { PG_HOLD_WARN_MS: '100' } });
    // Another role's session: the server hides its state and start from the service's role.
    const adminUrl = new URL(process.env.TEST_DATABASE_URL!);
    adminUrl.pathname = new URL(t.database.url).pathname;
    const holder = await openSession(adminUrl.toString(), 'forgotten psql');
    try {
      const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await beginHolding(holder);
      const line = await untilHoldLogged(t, (entry) => entry.backendPid === pid);
      assert.equal(line.applicationName, 'forgotten psql');
      assert.equal(line.state, undefined);
      assert.equal(line.ageFrom, 'first seen by this process');
      assert.ok((line.ageMs as number) >= 100);
    } finally {
      await holder.query('rollback').catch(() => {});
      await holder.end();
      await t.close();
    }
  });
});

describeOnPostgres("the service's own connections", {}, () => {
  it('a pooled connection > ends a transaction left idle after DATABASE_STATEMENT_TIMEOUT_MS (idle_in_transaction_session_timeout), so the service never holds the listings back longer', async () => {
    const place = await createEmptyDatabaseUrl('postgres');
    const handle = createDb(place.url, { statementTimeoutMs: 1234 });
    try {
      const { rows } = await sql<{ idle: string; statement: string }>`select current_setting('idle_in_transaction_session_timeout') as idle, current_setting('statement_timeout') as statement`.execute(handle.db);
      assert.deepEqual(rows, [{ idle: '1234ms', statement: '1234ms' }]);
    } finally {
      await handle.close();
      await place.remove();
    }
  });
});

describe('animal_store_db_listings_held_seconds under --workers', () => {
  it('two workers report holds > the primary shows the oldest, not the sum', async () => {
    const workers = [3, 5].map((seconds) => {
      const registry = new Registry();
      registerListingHoldMetrics(registry, { oldestAgeMs: () => seconds * 1000 });
      return registry;
    });
    const merged = await AggregatorRegistry.aggregate(await Promise.all(workers.map((registry) => registry.getMetricsAsJSON()))).metrics();
    assert.equal(sampleValue(merged, HOLD_METRIC), 5);
  });
});
