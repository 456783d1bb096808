/**
 * Peak memory and time of `export` and `import` on a large store: a SQLite store of TRANSFER_PETS
 * pets (1,000,000; each with its pet.created event) is exported, imported into a fresh PostgreSQL
 * database, exported from there and imported into a fresh SQLite store. Each step is one
 * `node dist/cli.js` process (with the image's --max-semi-space-size=8 unless TRANSFER_NODE_FLAGS
 * says otherwise) under /usr/bin/time -v, whose "Maximum resident set size" is the peak RSS. `npm run build && npx tsx bench/transfer-rss.ts`; docs/performance.md ("Export and
 * import at 1,000,000 pets") has the figures. Not a test: it takes minutes and asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CLI_PATH, SERVICE_NODE_FLAGS } from '../test/helpers/spawn-service.js';
import { cleanupAll } from './cleanup.js';
import { intFromEnv, log } from './settings.js';
import { bulkInsertPets, sqliteTarget } from './targets.js';

const PETS = intFromEnv('TRANSFER_PETS', 1_000_000, 1000, 100_000_000);
/** The CLI measured: TRANSFER_CLI names another build (one kept from before a change). */
const CLI = process.env.TRANSFER_CLI ?? CLI_PATH;
/** Node's options for each step: the image's and `npm start`'s by default; TRANSFER_NODE_FLAGS="" measures plain node. */
const NODE_FLAGS = process.env.TRANSFER_NODE_FLAGS === undefined ? SERVICE_NODE_FLAGS : process.env.TRANSFER_NODE_FLAGS.split(' ').filter(Boolean);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Step {
  step: string;
  seconds: number;
  peakMb: number;
  load: string;
}

/** Runs the CLI under /usr/bin/time -v: its peak RSS from "Maximum resident set size", its seconds. */
async function measured(step: string, args: string[], databaseUrl: string): Promise<Step> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...NODE_FLAGS, CLI, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${step} failed (${code}): ${stderr.slice(-2000)}`);
  const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]);
  const result = {
    step,
    seconds,
    peakMb: peakKb / 1024,
    load: loadavg()
      .map((n) => n.toFixed(1))
      .join(' '),
  };
  log(`${step}: ${result.seconds.toFixed(1)} s, peak RSS ${result.peakMb.toFixed(0)} MB (load ${result.load})`);
  return result;
}

/** Runs one statement on the server's maintenance connection (CREATE and DROP DATABASE cannot run in a transaction). */
async function admin(command: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(command);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const source = await sqliteTarget();
  const folder = source.url.replace(/^sqlite:/, '').replace(/\/[^/]+$/, '');
  const database = `bench_transfer_${randomBytes(4).toString('hex')}`;
  const postgresUrl = new URL(ADMIN_URL);
  postgresUrl.pathname = `/${database}`;
  const back = `sqlite:${join(folder, 'back.db')}`;
  const [first, second] = [join(folder, 'first.ndjson'), join(folder, 'second.ndjson')];
  try {
    execFileSync(process.execPath, [CLI, 'migrate'], { env: { ...process.env, DATABASE_URL: source.url, LOG_LEVEL: 'warn' } });
    log(`inserting ${PETS.toLocaleString('en')} pets; each step runs node ${NODE_FLAGS.join(' ')}`);
    await bulkInsertPets(source, PETS);
    await admin(`create database ${database}`);
    const steps = [
      await measured('export from SQLite', ['export', '--output', first], source.url),
      await measured('import into PostgreSQL', ['import', first], postgresUrl.toString()),
      await measured('export from PostgreSQL', ['export', '--output', second], postgresUrl.toString()),
      await measured('import into SQLite', ['import', second], back),
    ];
    log(
      `file: ${(statSync(first).size / 1e6).toFixed(0)} MB; the two exports ${statSync(first).size === statSync(second).size ? 'have the same size' : 'differ in size'}`,
    );
    console.log('\n| step | seconds | peak RSS MB | load average (1, 5, 15 min) |\n|---|---|---|---|');
    for (const { step, seconds, peakMb, load } of steps) console.log(`| ${step} | ${seconds.toFixed(1)} | ${peakMb.toFixed(0)} | ${load} |`);
  } finally {
    await admin(`drop database if exists ${database}`);
    await cleanupAll();
  }
}

await main();
