/**
 * One deadline per PostgreSQL operation (db/postgres/deadline.ts, db/postgres-connections.ts): the
 * arithmetic of the budget with a clock the test moves, then the connections against a real
 * PostgreSQL, behind a proxy that goes silent. test/db/outage.test.ts checks the bound through
 * the whole service.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import { DEADLINE_CODE, startBudget } from '../../../src/db/postgres/deadline.js';
import { startDatabaseProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../../helpers/test-db.js';
import { waitUntil } from '../../helpers/wait-for.js';
import { rejection } from '../../helpers/rejection.js';

describe('startBudget', () => {
  it('when the wait for a connection used part of the budget > what is left is the rest', () => {
    const clock = { now: 0 };
    const budget = startBudget(4000, () => clock.now);
    clock.now += 2500;
    assert.equal(budget.remainingMs(), 1500);
  });

  it('when the wait used the whole budget > a statement still gets a deadline, never none', () => {
    const clock = { now: 0 };
    const budget = startBudget(4000, () => clock.now);
    clock.now += 5000;
    assert.equal(budget.remainingMs(), 1);
  });
});

describeOnPostgres('PostgreSQL connections and the deadline', {}, () => {
  const STATEMENT_TIMEOUT_MS = 300;
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let proxy: TcpProxy & { url: string };
  let handle: DbHandle;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    proxy = await startDatabaseProxy(place.url);
    // One connection: every statement below shares it, unless it was closed.
    handle = createDb(proxy.url, { poolMax: 1, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
  });
  after(async () => {
    await handle?.close();
    await proxy?.close();
    await place?.remove();
  });

  const backendPid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;
  it('when a statement gets no answer in time > it fails as unavailable, and its connection is closed instead of used again', async () => {
    const before = await backendPid();
    proxy.stall();
    const error = await rejection(sql`select ${1}::int as one`.execute(handle.db));
    assert.equal((error as { code?: string }).code, DEADLINE_CODE);
    assert.equal(isDatabaseUnavailable(error), true);
    // The silent connection lost the bytes it sent: used again, it would never answer.
    await proxy.restore();
    assert.notEqual(await backendPid(), before);
  });

  it('when a statement fails otherwise > the connection stays in use', async () => {
    const before = await backendPid();
    const error = await rejection(sql`select 1 / ${0}::int`.execute(handle.db));
    assert.equal((error as { code?: string }).code, '22012');
    assert.equal(isDatabaseUnavailable(error), false);
    assert.equal(await backendPid(), before);
  });

  it('while every connection is held by a transaction > a statement waits, is counted as waiting, and fails as unavailable at its deadline', async () => {
    // The transaction stays idle longer than the idle-in-transaction timeout (shorter than any
    // budget), so the server ends its session: its next statement fails as unavailable, and the
    // connection is replaced (Postgres.js, asked to write on it, threw an uncaught TypeError).
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let began!: () => void;
    const inTransaction = new Promise<void>((resolve) => (began = resolve));
    const transaction = handle.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      began();
      await held;
      return (await sql<{ two: number }>`select ${2}::int as two`.execute(trx)).rows[0]!.two;
    });
    await inTransaction;
    const waiting = rejection(sql`select ${3}::int as three`.execute(handle.db));
    await waitUntil(() => handle.poolStats!().waiting === 1, { deadlineMs: 5000, what: 'the statement was not counted as waiting' });
    const error = await waiting;
    assert.equal((error as { code?: string }).code, DEADLINE_CODE);
    assert.equal(handle.poolStats!().waiting, 0);
    finish();
    const ended = await rejection(transaction);
    assert.equal(isDatabaseUnavailable(ended), true, String(ended));
    assert.equal((await sql<{ four: number }>`select ${4}::int as four`.execute(handle.db)).rows[0]!.four, 4);
  });
});
