import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { poolWithDeadline } from '../../src/db/postgres-deadline.js';

/**
 * A stand-in for pg's pool, recording what the wrapper asks of it: the arithmetic of the shared
 * deadline is checked here with a clock the test moves; test/db/outage.test.ts checks the bound
 * against a real PostgreSQL behind a stalled link.
 */
function fakePool(clock: { now: number }, waitForConnectionMs: number, queryError?: Error) {
  const calls = { readTimeouts: [] as number[], releasedWith: [] as (boolean | undefined)[] };
  const client = {
    async query(config: { query_timeout: number }) {
      calls.readTimeouts.push(config.query_timeout);
      if (queryError) throw queryError;
      return { command: 'SELECT', rowCount: 0, rows: [] };
    },
    release: (destroy?: boolean) => calls.releasedWith.push(destroy),
  };
  const pool = {
    async connect() {
      clock.now += waitForConnectionMs;
      return client;
    },
    end: async () => {},
  };
  return { pool: pool as unknown as pg.Pool, calls };
}

describe('poolWithDeadline', () => {
  it('when the wait for a connection used part of the budget > the first query may read only for the rest, later ones for a whole budget', async () => {
    const clock = { now: 0 };
    const { pool, calls } = fakePool(clock, 2500);
    const client = await poolWithDeadline(pool, 4000, () => clock.now).connect();
    await client.query('select 1', []);
    await client.query('select 2', []);
    client.release();
    assert.deepEqual(calls, { readTimeouts: [1500, 4000], releasedWith: [false] });
  });

  it('when the wait for a connection used the whole budget > the query still gets a read timeout, never none', async () => {
    const clock = { now: 0 };
    const { pool, calls } = fakePool(clock, 5000);
    const client = await poolWithDeadline(pool, 4000, () => clock.now).connect();
    await client.query('select 1', []);
    assert.deepEqual(calls.readTimeouts, [1]);
  });

  it('when a query gets no answer in time > the connection is closed on release instead of going back to the pool', async () => {
    const clock = { now: 0 };
    const { pool, calls } = fakePool(clock, 0, new Error('Query read timeout'));
    const client = await poolWithDeadline(pool, 4000, () => clock.now).connect();
    await assert.rejects(client.query('select 1', []), /Query read timeout/);
    client.release();
    assert.deepEqual(calls.releasedWith, [true]);
  });

  it('when a query fails otherwise > the connection goes back to the pool', async () => {
    const clock = { now: 0 };
    const { pool, calls } = fakePool(clock, 0, Object.assign(new Error('duplicate key'), { code: '23505' }));
    const client = await poolWithDeadline(pool, 4000, () => clock.now).connect();
    await assert.rejects(client.query('select 1', []), /duplicate key/);
    client.release();
    assert.deepEqual(calls.releasedWith, [false]);
  });
});
