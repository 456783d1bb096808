/**
 * Hostile review: migrations at start against the PostgreSQL driver's one budget per operation
 * (the statement timeout plus a second, db/postgres/deadline.ts). Migration 2026-11-28T00 sets no
 * statement timeout ("numbering the events takes about 30 s per million: no statement timeout may
 * cut it"), and docs/operations.md, "Start-up and migrations", says instances starting together
 * wait for the one that migrates. Both run through migrateStore, as `serve`, `migrate` and the key commands do.
 *
 * A scratch database of its own: Kysely's migration lock is one advisory lock per database, and
 * these tests hold it for seconds; in the shared test database they would hold up every other
 * suite's migrations.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { createDb, operationBudgetMs } from '../../../src/db/create-db.js';
import { migrateStore, migrateUpTo } from '../../../src/db/migrate.js';
import { describeOnPostgres } from '../../helpers/test-db.js';
import { waitUntil } from '../../helpers/wait-for.js';

const BEFORE = '2026-11-27T06-webhook-deliveries-endpoint-due';
const UPGRADE = '2026-11-28T00-plain-ids-and-positions';
const STATEMENT_TIMEOUT_MS = 200;
const BUDGET_MS = operationBudgetMs(STATEMENT_TIMEOUT_MS);

type Outcome = { applied: string[] } | { error: unknown };
const describe = (outcome: Outcome | 'still waiting') => (typeof outcome === 'object' && 'error' in outcome ? String(outcome.error) : JSON.stringify(outcome));

describeOnPostgres('hostile: migrations that wait longer than one operation budget (PostgreSQL)', {}, () => {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `animal_store_h_${randomBytes(6).toString('hex')}`;
  let url: string;
  /** Looks at the scratch database's locks; never holds one. */
  let watcher: pg.Client;

  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  /** Holds a lock on the events table (what a long transaction or pg_dump holds) until `release`. */
  const holdEvents = async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select count(*) from events');
    return async () => {
      await holder.query('commit');
      await holder.end();
    };
  };
  const waitingForALock = async () =>
    (
      await watcher.query<{ n: number }>(
        'select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())',
      )
    ).rows[0]!.n > 0;
  const outcomeOf = (work: Promise<string[]>): Promise<Outcome> =>
    work.then(
      (applied) => ({ applied }),
      (error: unknown) => ({ error }),
    );

  /** The scratch database made anew, migrated up to the release before the upgrade, and watched. */
  const databaseBeforeTheUpgrade = async () => {
    await admin(`create database ${name}`);
    const setup = createDb(url, { poolMax: 1 });
    try {
      await migrateUpTo(setup.db, BEFORE);
    } finally {
      await setup.close();
    }
    watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
  };

  before(async () => {
    const target = new URL(adminUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    await databaseBeforeTheUpgrade();
  });
  after(async () => {
    await watcher?.end();
    await admin(`drop database if exists ${name} with (force)`);
  });

  it(
    "the upgrade waits for the tables' lock longer than one operation budget (it sets no statement timeout) > it is applied once the lock is free, not given up by the client",
    { timeout: 30_000 },
    async () => {
      const release = await holdEvents();
      const migrating = outcomeOf(migrateStore(url, STATEMENT_TIMEOUT_MS));
      let early: Outcome | 'still waiting';
      try {
        await waitUntil(waitingForALock, { deadlineMs: 10_000, what: 'the migration to wait for the lock on events' });
        // The lock stays held for longer than one budget: the condition under test (a long transaction, a pg_dump, a large table).
        early = await Promise.race([migrating, sleep(2 * BUDGET_MS, 'still waiting' as const)]);
      } finally {
        await release();
      }
      assert.equal(early, 'still waiting', `the migration gave up while the server was still working on it: ${describe(early)}`);
      assert.deepEqual(await migrating, { applied: [UPGRADE] });
    },
  );

  it(
    'an instance that starts while another one migrates > waits for it and starts (docs: "the others wait for it"), not failing at its statement timeout',
    { timeout: 30_000 },
    async () => {
      // A database back before the upgrade: the first instance's migration waits for the held lock,
      // with a budget longer than the hold; the second instance starts meanwhile with a shorter one.
      await watcher.end();
      await admin(`drop database ${name} with (force)`);
      await databaseBeforeTheUpgrade();

      const release = await holdEvents();
      const first = outcomeOf(migrateStore(url, 10 * BUDGET_MS));
      let second: Outcome | 'still waiting';
      try {
        await waitUntil(waitingForALock, { deadlineMs: 10_000, what: 'the first migration to wait for the lock on events' });
        const starting = outcomeOf(migrateStore(url, STATEMENT_TIMEOUT_MS));
        second = await Promise.race([starting, sleep(2 * BUDGET_MS, 'still waiting' as const)]);
      } finally {
        await release();
      }
      assert.deepEqual(await first, { applied: [UPGRADE] });
      assert.equal(second, 'still waiting', `the second instance's start failed while the first migrated: ${describe(second)}`);
    },
  );
});
