/**
 * How the service's resident memory (RSS) behaves over a long run of varied listings and writes,
 * to tell growth that levels off (allocator and SQLite caches filling up) from a leak (growth
 * that never stops). `npx tsx bench/rss-soak.ts` after `npm run build`; docs/performance.md
 * ("RSS over a long run") has the figures. Not a test: it takes minutes and asserts nothing.
 *
 * The load: every listing shape the API has (each filter alone and combined, every page limit,
 * id lists of 1 to 100 ids, cursors followed), creates, merge patches and deletes, from
 * SOAK_CONCURRENCY clients, for SOAK_MINUTES. RSS (VmRSS) is read every
 * SOAK_SAMPLE_SECONDS; one line per sample, then a table of about ten samples. SOAK_CREATES=0
 * (with SOAK_DATABASE_URL and SOAK_MAX_ID) keeps the table's size, to tell growth that follows the
 * data from growth that follows the requests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnService } from '../test/helpers/spawn-service.js';
import { intFromEnv, log } from './settings.js';

const MINUTES = intFromEnv('SOAK_MINUTES', 20, 1, 24 * 60);
const CONCURRENCY = intFromEnv('SOAK_CONCURRENCY', 8, 1, 256);
const SAMPLE_SECONDS = intFromEnv('SOAK_SAMPLE_SECONDS', 15, 1, 600);
const DATABASE_URL = process.env.SOAK_DATABASE_URL?.trim();
/** 0: no creates, so the table keeps its size (with SOAK_DATABASE_URL naming a filled one, and its largest id). */
const CREATES = intFromEnv('SOAK_CREATES', 1, 0, 1) === 1;
const MAX_ID = intFromEnv('SOAK_MAX_ID', 1, 1, Number.MAX_SAFE_INTEGER);

const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** A listing of a random shape: filters alone or together, any limit, id lists of any length. */
function listingPath(maxId: number): string {
  const query: string[] = [`limit=${1 + random(100)}`];
  if (random(3) === 0) query.push(`status=${pick(['available', 'pending', 'sold'])}`);
  if (random(3) === 0) query.push(`categoryId=${1 + random(10)}`);
  if (random(4) === 0) query.push(`name=${pick(['b', 'be', 'bench', 'r', 'renamed', 'x'])}`);
  if (random(3) === 0) for (let i = 1 + random(100); i > 0; i--) query.push(`id=${1 + random(maxId)}`);
  return `/v1/pets?${query.join('&')}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-soak-'));
  const url = DATABASE_URL ?? `sqlite:${join(dir, 'soak.db')}`;
  try {
    const created = await runCli(['keys', 'create', '--name', 'soak'], { DATABASE_URL: url, LOG_LEVEL: 'warn' }, { timeoutMs: 60_000 });
    const key = created.stdout.trim().split('\n').at(-1)?.trim();
    if (created.code !== 0 || !key) throw new Error(`keys create failed: ${created.stderr}`);
    const service = await spawnService({ databaseUrl: url, env: { LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '10000000' }, startTimeoutMs: 60_000 });
    service.dropOutput();
    const pid = service.process.pid!;
    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    let maxId = MAX_ID;
    let requests = 0;
    let failures = 0;
    const request = async (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> => {
      const response = await fetch(service.baseUrl + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      requests += 1;
      if (response.status >= 500) failures += 1;
      return response;
    };
    // One step: mostly listings (a next page followed now and then), some writes.
    const step = async () => {
      const roll = random(20);
      if (roll < 14) {
        const page = await request('GET', listingPath(maxId), auth);
        const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
        await page.arrayBuffer();
        if (next && random(2) === 0)
          await (await request('GET', new URL(next, service.baseUrl).pathname + new URL(next, service.baseUrl).search, auth)).arrayBuffer();
      } else if (roll < 17 && CREATES) {
        const created = await request('POST', '/v1/pets', json, {
          name: `Bench ${random(1e6)}`,
          categoryId: 1 + random(10),
          status: pick(['available', 'pending', 'sold']),
        });
        const pet = (await created.json()) as { id?: number };
        if (pet.id) maxId = Math.max(maxId, pet.id);
      } else if (roll < 19 || !CREATES) {
        const patch = await request(
          'PATCH',
          `/v1/pets/${1 + random(maxId)}`,
          { ...auth, 'content-type': 'application/merge-patch+json' },
          { name: `Renamed ${random(1e6)}` },
        );
        await patch.arrayBuffer();
      } else {
        await (await request('DELETE', `/v1/pets/${1 + random(maxId)}`, auth)).arrayBuffer();
      }
    };
    const until = Date.now() + MINUTES * 60_000;
    const clients = Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) await step();
    });
    const samples: Array<{ minute: number; rss: number; requests: number }> = [];
    const sample = () => {
      const minute = (MINUTES * 60_000 - (until - Date.now())) / 60_000;
      samples.push({ minute, rss: rssMb(pid), requests });
      log(`${minute.toFixed(1)} min: RSS ${rssMb(pid).toFixed(0)} MB, ${requests} requests, ${failures} answers ≥ 500, ${maxId} pets`);
    };
    sample();
    const timer = setInterval(sample, SAMPLE_SECONDS * 1000);
    await Promise.all(clients);
    clearInterval(timer);
    sample();
    process.stdout.write(`\n| minutes | requests | RSS MB (last sample) | largest RSS MB so far |\n| --: | --: | --: | --: |\n`);
    let largest = 0;
    for (const [i, s] of samples.entries()) {
      largest = Math.max(largest, s.rss);
      if (i % Math.max(1, Math.floor(samples.length / 10)) === 0 || i === samples.length - 1) {
        process.stdout.write(`| ${s.minute.toFixed(1)} | ${s.requests} | ${s.rss.toFixed(0)} | ${largest.toFixed(0)} |\n`);
      }
    }
    process.stdout.write(`\n${requests} requests, ${failures} answers ≥ 500\n`);
    await service.stop('SIGTERM', 30_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
