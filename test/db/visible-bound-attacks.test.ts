/**
 * Hostile conditions for the PostgreSQL listings' bound (db/visible-bound.ts): a server on which
 * the service's role may not read pg_stat_activity (a hardened cluster revokes it from PUBLIC), so
 * the lookup of whose a running transaction is fails. The listing must still answer, holding back
 * what it cannot prove settled (a walk stays exact), never 500.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { HOLD_WATCH_REFUSED } from '../../src/db/listing-holds.js';
import { nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createScratchDatabase, describeOnPostgres } from '../helpers/test-db.js';

describeOnPostgres('PostgreSQL listings when the role may not read pg_stat_activity', {}, () => {
  let t: TestApp;
  before(async () => {
    const database = await createScratchDatabase({ owner: true });
    // As the cluster's administrator, in the scratch database only: its owner role is no superuser.
    const adminUrl = new URL(process.env.TEST_DATABASE_URL!);
    adminUrl.pathname = `/${database.name}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query('revoke select on pg_catalog.pg_stat_activity from public');
    await admin.end();
    t = await createTestApp('postgres', { database });
  });
  after(async () => {
    await t?.close();
  });

  it('a transaction open in another database, pets created meanwhile > listings answer 200 (held back, not 500), a one-page ?id= answers the pet, and once it ends the walk sees every pet once', async () => {
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL!, application_name: 'forgotten psql' });
    other.on('error', () => {});
    await other.connect();
    let open = true;
    try {
      await other.query('begin');
      await other.query('select pg_current_xact_id()');
      const categoryId = 100 + Math.floor(Math.random() * 1e6);
      const ids: number[] = [];
      for (const name of ['Hardened 1', 'Hardened 2']) {
        const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, 'content-type': 'application/json' }, payload: { name, categoryId } });
        assert.equal(created.statusCode, 201, created.body);
        ids.push((created.json() as { id: number }).id);
      }
      const listing = await t.app.inject({ method: 'GET', url: `/v1/pets?categoryId=${categoryId}`, headers: t.auth });
      assert.equal(listing.statusCode, 200, listing.body);
      const orders = await t.app.inject({ method: 'GET', url: '/v1/store/orders', headers: t.auth });
      assert.equal(orders.statusCode, 200, orders.body);
      const one = await t.app.inject({ method: 'GET', url: `/v1/pets?id=${ids[0]}`, headers: t.auth });
      assert.equal(one.statusCode, 200, one.body);
      assert.deepEqual((one.json() as { id: number }[]).map((pet) => pet.id), [ids[0]]);

      await other.query('rollback');
      open = false;
      const seen: number[] = [];
      let next: string | undefined = `/v1/pets?categoryId=${categoryId}&limit=1`;
      while (next) {
        const page: Awaited<ReturnType<typeof t.app.inject>> = await t.app.inject({ method: 'GET', url: next, headers: t.auth });
        assert.equal(page.statusCode, 200, page.body);
        seen.push(...(page.json() as { id: number }[]).map((pet) => pet.id));
        next = nextLinkOf(page.headers.link);
      }
      assert.deepEqual(seen, ids);
    } finally {
      if (open) await other.query('rollback').catch(() => {});
      await other.end();
    }
  });

  it('the hold watcher cannot read pg_stat_activity > it says so once in the log (holds are not watched), instead of reporting no hold in silence', async () => {
    await t.app.listingHolds.checkNow();
    await t.app.listingHolds.checkNow();
    const lines = t.logs.filter((entry) => entry.msg === HOLD_WATCH_REFUSED);
    assert.equal(lines.length, 1, JSON.stringify(t.logs.filter((entry) => Number(entry.level) >= 40)));
    assert.equal(lines[0]!.level, 40);
    assert.match(String(lines[0]!.reason), /permission denied/);
  });
});

describe('docs/operations.md and the hold watcher', () => {
  it('docs/operations.md > quotes the refusal line as the watcher logs it (HOLD_WATCH_REFUSED)', () => {
    const text = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    assert.ok(text.includes(`"msg":"${HOLD_WATCH_REFUSED}"`), 'docs/operations.md quotes HOLD_WATCH_REFUSED');
  });
});
