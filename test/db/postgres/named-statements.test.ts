/**
 * A defect found by a hostile review: PostgreSQL statements are prepared once per connection
 * under a name (db/postgres/prepared-statements.ts). When another instance
 * adds a column to a table (an expand migration of a rolling deploy), every statement prepared
 * with `select *` / `returning *` over it (orders, keys, idempotency) fails once per pooled
 * connection with 0A000 "cached plan must not change result type", answered 500 internal_error.
 * Measured: `alter table orders add column note text` under a running instance, then 20
 * connections listing orders: 10 answers 500 (one per pooled connection). Before, unnamed
 * statements were planned again at each run and nothing failed.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { describeOnPostgres } from '../../helpers/test-db.js';

describeOnPostgres('a column added by another instance under prepared statements (PostgreSQL)', {}, () => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp('postgres');
  });
  after(async () => {
    await t.close();
  });

  it('the next listing of orders still answers 200', async () => {
    const json = { ...t.auth, 'content-type': 'application/json' };
    const pet = (await t.app.inject({ method: 'POST', url: '/v1/pets', headers: json, payload: { name: 'Rex', categoryId: 1 } })).json();
    assert.equal((await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: json, payload: { petId: pet.id } })).statusCode, 201);
    const list = () => t.app.inject({ method: 'GET', url: '/v1/store/orders?limit=5', headers: t.auth });
    // Prepared on the pooled connections the listing uses.
    for (let i = 0; i < 3; i += 1) assert.equal((await list()).statusCode, 200);

    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query('alter table orders add column note text');
    } finally {
      await other.end();
    }

    const after = await list();
    assert.equal(after.statusCode, 200, after.body);
  });
});
