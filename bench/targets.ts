/**
 * The databases the bench runs on (a fresh SQLite file; a fresh PostgreSQL schema), the bench's
 * own connection to each, and the seeding of pets straight into the table. Seeding ends with the
 * planner's statistics brought up to date (ANALYZE on PostgreSQL), so runs measure the service
 * with the plans it has in production, not a planner that has not seen the rows yet.
 */
import Sqlite from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onCleanup } from './cleanup.js';
import { processCpuSeconds } from './proc.js';
import { log } from './settings.js';

export interface Target {
  label: 'SQLite' | 'PostgreSQL';
  /** DATABASE_URL for the service. */
  url: string;
  description: string;
  /** PostgreSQL: the application_name of the service's connections, to find their backends. */
  applicationName?: string;
  /** Runs one statement on a connection of the bench's own (seeding, counting). */
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
}

export async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-bench-'));
  onCleanup(
    `remove ${dir}`,
    async () => rmSync(dir, { recursive: true, force: true }),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  const file = join(dir, 'bench.db');
  let connection: Sqlite.Database | undefined;
  onCleanup('close the bench SQLite connection', async () => void connection?.close());
  return {
    label: 'SQLite',
    url: `sqlite:${file}`,
    description: 'SQLite file in a fresh temporary folder, the service’s own settings',
    async query<T>(text: string) {
      connection ??= new Sqlite(file, { timeout: 30_000 });
      const statement = connection.prepare(text);
      return (statement.reader ? statement.all() : (statement.run(), [])) as T[];
    },
  };
}

export async function postgresTarget(adminUrl: string): Promise<Target> {
  if (!/^postgres(ql)?:\/\//i.test(adminUrl)) throw new Error('BENCH_DATABASE_URL / TEST_DATABASE_URL must be a postgres:// URL');
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  onCleanup('close the bench PostgreSQL connection', () => admin.end());
  await admin.query(`create schema ${schema}`);
  onCleanup(`drop schema ${schema}`, async () => {
    await admin.query(`drop schema if exists ${schema} cascade`);
    log(`dropped schema ${schema}`);
  });
  const version = String((await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?');
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // The service's connections carry this name, so their backends (and their CPU) can be found.
  const applicationName = `animal-store-${schema}`;
  url.searchParams.set('application_name', applicationName);
  return {
    label: 'PostgreSQL',
    url: url.toString(),
    applicationName,
    description: `PostgreSQL ${version} at ${url.hostname}:${url.port || '5432'}${url.pathname}, fresh schema ${schema} (dropped afterwards); the PostgreSQL server is not pinned`,
    async query<T>(text: string) {
      await admin.query(`set search_path to ${schema}`);
      return (await admin.query(text)).rows as T[];
    },
  };
}

/** CPU seconds of each PostgreSQL backend of the connections named `applicationName` (the service's unless told). */
export async function backendCpu(target: Target, applicationName = target.applicationName): Promise<Map<number, number> | undefined> {
  if (!applicationName) return undefined;
  const rows = await target.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = '${applicationName}'`);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = processCpuSeconds(Number(pid));
    if (seconds !== undefined) cpu.set(Number(pid), seconds);
  }
  return cpu;
}

const STATUSES_SQL = `case n % 3 when 0 then 'available' when 1 then 'pending' else 'sold' end`;

/**
 * Inserts `count` pets in one statement, straight into the table (a million takes seconds, not the
 * hours the API would): names like `Kqz 123` (the first letter changes with every pet, as in
 * bench/query-plans.ts), ten categories, statuses cycling or all `available`. Answers the id range.
 */
let batches = 0;

export async function bulkInsertPets(target: Target, count: number, status?: 'available'): Promise<{ first: number; last: number }> {
  const before = Number((await target.query<{ id: number | null }>('select max(id) as id from pets'))[0]?.id ?? 0);
  // The batch's mark: created_at = its number, a millisecond of 1970 the service never writes. The
  // ids are read back by it, since the service may still be finishing a previous run's creates.
  const batch = ++batches;
  const sqlite = target.label === 'SQLite';
  const letter = (every: number, base: number) => (sqlite ? `char(${base} + (n / ${every}) % 26)` : `chr(${base} + ((n / ${every}) % 26)::int)`);
  const name = `${letter(1, 65)} || ${letter(26, 97)} || ${letter(676, 97)} || ' ' || n`;
  const numbers = sqlite
    ? `with recursive g(n) as (select ${before + 1} union all select n + 1 from g where n < ${before + count}) select n from g`
    : `select n from generate_series(${before + 1}::bigint, ${before + count}::bigint) as n`;
  // Explicit ids, consecutive, so the scenarios can walk a known range.
  await target.query(
    `insert into pets (id, name, name_key, category_id, status, created_at)
     select n, ${name}, lower(${name}), 1 + n % 10, ${status ? `'${status}'` : STATUSES_SQL}, ${batch} from (${numbers}) as numbers`,
  );
  if (!sqlite) {
    // Ids given by hand: the identity goes on above them, so the service's new ids do not collide.
    await target.query(`select setval(pg_get_serial_sequence('pets', 'id'), (select max(id) from pets))`);
  }
  await analyze(target);
  const [range] = await target.query<{ first: number; last: number; n: number }>(
    `select min(id) as first, max(id) as last, count(*) as n from pets where created_at = ${batch}`,
  );
  const first = Number(range?.first);
  const last = Number(range?.last);
  // The scenarios walk the range, so its ids must be consecutive (on PostgreSQL a concurrent
  // insert could take ids in between; runScenario gives the service's last requests time to end).
  if (Number(range?.n) !== count || last - first + 1 !== count)
    throw new Error(`bulk insert of ${count} pets: got ${range?.n} pets with ids ${first}..${last}, not consecutive`);
  return { first, last };
}

/**
 * Brings the planner's statistics up to date after a seeding. PostgreSQL: without them it plans
 * the pages for a table it believes empty (a bitmap scan and a sort of every row per page) until
 * autovacuum gets round to it, which measures the seeding, not the service. Only the bench's own
 * schema's tables, never the whole database (a bare ANALYZE would visit every schema in it).
 * SQLite: nothing. The service never runs ANALYZE there (its planner always takes the filter's
 * index, docs/performance.md "query plans"), so statistics here would measure a planner that
 * production does not have; `PRAGMA optimize` only runs ANALYZE where statistics are missing
 * or stale, the same thing.
 */
async function analyze(target: Target): Promise<void> {
  if (target.label === 'PostgreSQL') await target.query('analyze pets, orders, api_keys, idempotency_keys');
}

export async function countPets(target: Target): Promise<number> {
  return Number((await target.query<{ n: number }>('select count(*) as n from pets'))[0]?.n ?? 0);
}
