/**
 * What the listing-holds suites share: PostgreSQL sessions a test opens beside the service and
 * leaves idle in a transaction, and the wait for the service's warning about one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { HOLD_WARNING } from '../../src/db/listing-holds.js';
import type { TestApp } from '../helpers/test-app.js';

/** A session of its own, named as a psql user's would be, that the test leaves idle in a transaction. */
export async function openSession(url: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** `begin; select pg_current_xact_id();` then nothing: the transaction has an id and stays open. */
export async function beginHolding(client: pg.Client): Promise<string> {
  await client.query('begin');
  return (await client.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows[0]!.xid;
}

export function otherDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL!;
}

/** Checks the holds (as the process does on its timer) until a warning matching `which` is logged. */
export async function untilHoldLogged(t: TestApp, which: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (;;) {
    await t.app.listingHolds.checkNow();
    const line = t.logs.find((entry) => entry.msg === HOLD_WARNING && which(entry));
    if (line) return line;
    await sleep(10);
  }
}
