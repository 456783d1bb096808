/**
 * Query plans and timings of the pets listing's filters on a large table: `npx tsx bench/query-plans.ts`
 * (SQLite; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set). Seeds
 * BENCH_PLAN_PETS pets (1,000,000 by default) straight into a fresh database, then prints, as
 * Markdown, each filter's plan for the first page and the median time of that statement run by
 * the repository itself. docs/performance.md quotes its output. Everything it creates is removed.
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import { prefixRange } from '../src/pets/pet-name-key.js';
import { type PetFilter, selectPetsAfter } from '../src/pets/pets.repository.js';
import { createTestDatabase } from '../test/helpers/test-db.js';

const PETS = Number(process.env.BENCH_PLAN_PETS ?? 1_000_000);
const RUNS = 15;

// Names are three letters and the row number ("Kqz 123456"), the first letter changing with every
// pet, the second every 26, the third every 676: a one-letter prefix matches 1/26 of the pets
// spread over the whole table, two letters 1/676, three letters 1/17,576.
const MIDDLE = Math.floor(PETS / 2);
const CASES: [string, PetFilter, number][] = [
  ['status=sold (1/3 of the pets)', { status: 'sold' }, 0],
  ['categoryId=42 (1/1000)', { categoryId: 42 }, 0],
  ['name=k (1/26)', { nameKeys: prefixRange('k') }, 0],
  ['name=k (1/26), a page from the middle of the walk', { nameKeys: prefixRange('k') }, MIDDLE],
  ['name=kq (1/676)', { nameKeys: prefixRange('kq') }, 0],
  ['name=kqz (1/17,576)', { nameKeys: prefixRange('kqz') }, 0],
  ['id=… (20 ids)', { ids: Array.from({ length: 20 }, (_, i) => 1 + i * Math.floor(PETS / 20)) }, 0],
  ['name=kq&status=sold', { nameKeys: prefixRange('kq'), status: 'sold' }, 0],
  ['categoryId=42&status=sold', { categoryId: 42, status: 'sold' }, 0],
  ['no filter, a page from the middle of the walk', {}, MIDDLE],
];

async function seed(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const letter = (every: number, base: number) =>
    dialect === 'sqlite' ? sql.raw(`char(${base} + (n / ${every}) % 26)`) : sql.raw(`chr(${base} + ((n / ${every}) % 26)::int)`);
  const name = sql`${letter(1, 65)} || ${letter(26, 97)} || ${letter(676, 97)} || ' ' || n`;
  const rows =
    dialect === 'sqlite'
      ? sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${PETS}) select n from g`
      : sql`select n from generate_series(1, ${PETS}::bigint) as n`;
  // Ids are given, so each pet's name follows from its id; nothing creates a pet after this load.
  await sql`insert into pets (id, name, name_key, category_id, status, created_at)
    select n, ${name}, lower(${name}), 1 + n % 1000, case n % 3 when 0 then 'available' when 1 then 'pending' else 'sold' end, 0
    from (${rows}) as numbers`.execute(db);
  // PostgreSQL's autovacuum gathers statistics by itself soon after such a load; done now here, for
  // the table explained only (a bare ANALYZE visits every schema of the database).
  // SQLite keeps none unless someone runs ANALYZE, and the service never does: it plans as shipped.
  if (dialect === 'postgres') await sql`analyze pets`.execute(db);
}

async function report(dialect: 'sqlite' | 'postgres'): Promise<string> {
  const database = await createTestDatabase(dialect, { statementTimeoutMs: 600_000 });
  try {
    const started = performance.now();
    await seed(database.db, dialect);
    const lines = [
      `### ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${PETS.toLocaleString('en')} pets (seeded in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
      '',
    ];
    for (const [label, filter, afterId] of CASES) {
      const query = selectPetsAfter(database.db, { afterId, filter, limit: 21 });
      const compiled = query.compile();
      const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const plan = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]));
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        found = (await query.execute()).length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      lines.push(
        `\`${label}\`: ${afterId === 0 ? 'first page' : `page after id ${afterId.toLocaleString('en')}`} (${found} rows) in ${times[Math.floor(RUNS / 2)]!.toFixed(2)} ms (median of ${RUNS})`,
        '',
        '```',
      );
      lines.push(...plan.rows.map((row) => row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row)), '```', '');
    }
    return lines.join('\n');
  } finally {
    await database.drop();
  }
}

const dialects: ('sqlite' | 'postgres')[] = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
for (const dialect of dialects) process.stdout.write(`${await report(dialect)}\n`);
