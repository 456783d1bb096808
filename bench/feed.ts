/**
 * The events feed under two loads, measured (never asserted in a test): `BENCH_FEED=open-transaction,catch-up
 * npm run bench` runs them instead of the scenarios (bench/README.md, "The events feed").
 *
 * - open-transaction (PostgreSQL): three instances of the service on one schema, a stream reader on
 *   each; a direct connection inserts a pet and keeps its transaction open BENCH_FEED_HOLD_SECONDS
 *   while creates arrive at a steady rate on two of the instances in turn. For every event: the
 *   time a stream received it − the time its create was answered, on the third instance (which
 *   takes no create, so only the fleet's channel or its own look every second tells it), and apart,
 *   on the other writing instance (its own commits wake its readers too). Once with REDIS_URL
 *   (commits told over Redis) and once without. Then the held-open transaction commits, and its
 *   event must reach every reader, after the others.
 * - catch-up (PostgreSQL and SQLite): one instance, a feed of BENCH_FEED_EVENTS events; creates at a
 *   steady rate, first with no reader (idle), then while 40 keys × 5 streams read the feed from
 *   its start; their latency (send → answer) in both phases, and the service's RSS before the
 *   streams and at its peak while they read.
 *
 * Each measurement runs BENCH_FEED_ROUNDS times; the report gives every round with the load
 * average beside it, and how far apart the rounds were (feed-report.ts).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type FeedEvent, type FeedFollower, followFeed } from '../test/helpers/feed-follower.js';
import { testNamespace } from '../test/helpers/redis.js';
import { runCli } from '../test/helpers/spawn-service.js';
import { waitUntil } from '../test/helpers/wait-for.js';
import { eventFrameCounter } from './event-frame-counter.js';
import { type CatchUpRun, durations, type FeedReport, type OpenTransactionRun, renderFeedMarkdown, slices } from './feed-report.js';
import { gitCommit } from './outcome.js';
import { processCpuSeconds, residentMb } from './proc.js';
import { type Server, startService } from './servers.js';
import { HAS_TASKSET, intFromEnv, log, POSTGRES_URL, RESULTS_DIR, SETTINGS } from './settings.js';
import { bulkInsertPets, postgresTarget, sqliteTarget, type Target } from './targets.js';

export const FEED_MEASUREMENTS = ['open-transaction', 'catch-up'] as const;
export type FeedMeasurement = (typeof FEED_MEASUREMENTS)[number];

const ROUNDS = intFromEnv('BENCH_FEED_ROUNDS', 2, 1, 20);
const HOLD_SECONDS = intFromEnv('BENCH_FEED_HOLD_SECONDS', 20, 1, 600);
const CATCH_UP_SECONDS = intFromEnv('BENCH_FEED_CATCH_UP_SECONDS', 30, 1, 3600);
const IDLE_SECONDS = intFromEnv('BENCH_FEED_IDLE_SECONDS', 15, 1, 600);
const FEED_EVENTS = intFromEnv('BENCH_FEED_EVENTS', 26_000, 100, 10_000_000);
const CREATES_PER_SECOND = intFromEnv('BENCH_FEED_CREATES_PER_SECOND', 20, 1, 1000);
const REDIS_URL = process.env.BENCH_REDIS_URL?.trim() || process.env.TEST_REDIS_URL?.trim() || process.env.REDIS_URL?.trim() || undefined;
const INSTANCES = 3;
/** open-transaction: the instances that take the creates (the first ones); the others only read. */
const WRITING = 2;
const KEYS = 40;
const STREAMS_PER_KEY = 5;
/** Unmeasured creates before the idle phase (JIT, connections). */
const WARMUP_SECONDS = 3;
/** How long, after the transaction commits, the readers are waited for before what they lack is counted as missing. */
const DRAIN_MS = 30_000;

interface Create {
  instance: number;
  sentAt: number;
  answeredAt: number;
  tookMs: number;
  /** The pet's id when it was answered 201. */
  id: number | undefined;
}

async function createPet(service: Server, instance: number, key: string, name: string): Promise<Create> {
  const sentAt = performance.now();
  try {
    const response = await fetch(`${service.baseUrl}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as { id?: number };
    const answeredAt = performance.now();
    return { instance, sentAt, answeredAt, tookMs: answeredAt - sentAt, id: response.status === 201 ? body.id : undefined };
  } catch {
    const answeredAt = performance.now();
    return { instance, sentAt, answeredAt, tookMs: answeredAt - sentAt, id: undefined };
  }
}

/** Creates at a steady rate, whatever the answers' pace (a slow answer does not delay the next create), on the services in turn. */
async function paceCreates(services: Server[], key: string, seconds: number, label: string): Promise<Create[]> {
  const gap = 1000 / CREATES_PER_SECOND;
  const started = performance.now();
  const pending: Promise<Create>[] = [];
  for (let i = 0; i < seconds * CREATES_PER_SECOND; i++) {
    const wait = started + i * gap - performance.now();
    if (wait > 0) await sleep(wait);
    const instance = i % services.length;
    pending.push(createPet(services[instance]!, instance, key, `${label} ${i}`));
  }
  return Promise.all(pending);
}

/** The largest resident set of `pids` (summed) sampled every 200 ms until `stop()`. */
function sampleRss(pids: number[]): { now(): number; stop(): number } {
  let peak = 0;
  const read = () => {
    const total = pids.reduce((sum, pid) => sum + (residentMb(pid, 'VmRSS') ?? 0), 0);
    peak = Math.max(peak, total);
    return total;
  };
  read();
  const timer = setInterval(read, 200);
  return {
    now: read,
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/** Answers a function giving the CPU `pids` used since this call, in % of one core. */
function cpuShare(pids: number[]): () => number {
  const cpu = () => pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
  const startCpu = cpu();
  const startAt = performance.now();
  return () => (100 * (cpu() - startCpu)) / ((performance.now() - startAt) / 1000);
}

/** `keys create` with the CLI (it migrates first): `count` keys, a few at a time. */
async function makeKeys(target: Target, count: number): Promise<string[]> {
  const keys: string[] = [];
  const one = async (n: number) => {
    const created = await runCli(['keys', 'create', '--name', `feed ${n}`], { DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { timeoutMs: 60_000 });
    const key = created.stdout.trim().split('\n').at(-1)?.trim();
    if (created.code !== 0 || !key) throw new Error(`keys create failed (${created.code}): ${created.stderr}`);
    keys.push(key);
  };
  await one(0);
  for (let n = 1; n < count; n += 4) await Promise.all(Array.from({ length: Math.min(4, count - n) }, (_, i) => one(n + i)));
  return keys;
}

/** Waits until the feed holds `count` numbered events (on PostgreSQL the service's sequencer numbers what was inserted straight into the table). */
async function waitForFeed(target: Target, count: number): Promise<number> {
  let numbered = 0;
  await waitUntil(
    async () => {
      numbered = Number((await target.query<{ n: number | string }>('select count(*) as n from events where position is not null'))[0]?.n ?? 0);
      return numbered >= count;
    },
    { deadlineMs: 300_000, everyMs: 200, what: `the feed never held ${count} numbered events` },
  );
  return numbered;
}

/** Per stream reader: each pet's arrivals (time, and rank among the reader's events). */
type Arrivals = Map<number, { at: number; rank: number }[]>;

function recordArrivals(arrivals: Arrivals): (events: FeedEvent[]) => void {
  let rank = 0;
  return (events) => {
    const at = performance.now();
    for (const event of events) {
      if (event.type !== 'pet.created') continue;
      const seen = arrivals.get(event.data.id) ?? [];
      seen.push({ at, rank: rank++ });
      arrivals.set(event.data.id, seen);
    }
  };
}

async function openTransactionRun(target: Target, key: string, redisUrl: string | undefined, round: number): Promise<OpenTransactionRun> {
  const loadStart = loadavg();
  const namespace = redisUrl ? testNamespace() : undefined;
  const env = redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: namespace!.prefix } : { REDIS_URL: undefined };
  const cursorSecret = randomBytes(24).toString('base64url');
  const services: Server[] = [];
  const followers: FeedFollower[] = [];
  const direct = new pg.Client({ connectionString: target.url });
  let open = false;
  try {
    for (let i = 0; i < INSTANCES; i++) services.push(await startService(target, cursorSecret, { env }));
    const arrivals = services.map((): Arrivals => new Map());
    for (const [i, service] of services.entries()) {
      followers.push(await followFeed({ kind: 'stream', baseUrl: service.baseUrl, key, from: 'latest', onEvents: recordArrivals(arrivals[i]!) }));
    }
    await direct.connect();
    await direct.query('begin');
    open = true;
    const held = await direct.query<{ id: number | string }>(
      "insert into pets (name, name_key, category_id, status, created_at) values ('Held open', 'held open', 1, 'available', 0) returning id",
    );
    const heldId = Number(held.rows[0]!.id);
    // The last instance takes no create: its reader learns of the others' commits only from them (Redis) or its own look every second.
    const creates = await paceCreates(services.slice(0, WRITING), key, HOLD_SECONDS, 'While open');
    await direct.query('commit');
    open = false;
    const committedAt = performance.now();
    const created = creates.filter((c) => c.id !== undefined);
    const expected = [...created.map((c) => c.id!), heldId];
    await waitUntil(() => arrivals.every((reader) => expected.every((id) => reader.has(id))), { deadlineMs: DRAIN_MS, everyMs: 50, what: 'readers' }).catch(
      () => {},
    );

    const latency: number[] = [];
    const latencyOnWriting: number[] = [];
    const heldAfterCommit: number[] = [];
    let missing = 0;
    let duplicates = 0;
    let heldOpenOutOfOrder = 0;
    for (const [r, reader] of arrivals.entries()) {
      for (const create of created) {
        const got = reader.get(create.id!);
        if (!got) missing += 1;
        else if (r >= WRITING) latency.push(got[0]!.at - create.answeredAt);
        else if (create.instance !== r) latencyOnWriting.push(got[0]!.at - create.answeredAt);
      }
      const heldGot = reader.get(heldId);
      if (!heldGot) missing += 1;
      else {
        heldAfterCommit.push(heldGot[0]!.at - committedAt);
        if (created.some((c) => (reader.get(c.id!)?.[0]?.rank ?? -1) > heldGot[0]!.rank)) heldOpenOutOfOrder += 1;
      }
      for (const seen of reader.values()) if (seen.length > 1) duplicates += seen.length - 1;
    }
    return {
      redis: redisUrl !== undefined,
      round,
      holdSeconds: HOLD_SECONDS,
      creates: created.length,
      failedCreates: creates.length - created.length,
      latency: durations(latency),
      latencyOnWriting: durations(latencyOnWriting),
      missing,
      duplicates,
      heldOpenAfterCommit: durations(heldAfterCommit),
      heldOpenOutOfOrder,
      loadAverage: { start: loadStart, end: loadavg() },
    };
  } finally {
    for (const follower of followers) follower.stop();
    if (open) await direct.query('rollback').catch(() => {});
    await direct.end().catch(() => {});
    for (const service of services) await service.stop();
    if (namespace && redisUrl) await namespace.removeKeys(redisUrl);
  }
}

/**
 * A catch-up reader that only counts the frames that hold an event (event-frame-counter.ts): the
 * tests' SSE client parses every frame and its JSON, and 200 of them in this process, at thousands
 * of events a second, delayed the creates it sends and times. Resolves once the answer is a 200
 * stream, with the function that closes it; `onEnd` is told when the service ends the stream first.
 */
async function countFrames(baseUrl: string, key: string, on: { onFrames: (count: number) => void; onEnd: () => void }): Promise<() => void> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request(`${baseUrl}/v1/events`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` }, agent: false }, resolve);
    sent.on('error', reject);
    sent.end();
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new Error(`GET /v1/events as a stream answered ${response.statusCode}`);
  }
  let stopped = false;
  const count = eventFrameCounter();
  response.on('data', (chunk: Buffer) => {
    const frames = count(chunk);
    if (frames > 0) on.onFrames(frames);
  });
  response.on('error', () => {});
  response.on('close', () => {
    if (!stopped) on.onEnd();
  });
  return () => {
    stopped = true;
    response.destroy();
  };
}

async function catchUpRun(makeTarget: () => Promise<Target>, round: number): Promise<CatchUpRun> {
  const target = await makeTarget();
  log(`  ${target.label}, round ${round}: ${KEYS + 1} keys, ${FEED_EVENTS.toLocaleString('en')} events`);
  const [writer, ...readers] = await makeKeys(target, KEYS + 1);
  const service = await startService(target, randomBytes(24).toString('base64url'));
  const stops: (() => void)[] = [];
  try {
    // Inserted straight into the table: the triggers record one pet.created each.
    await bulkInsertPets(target, FEED_EVENTS);
    await waitForFeed(target, FEED_EVENTS);
    const warmup = await paceCreates([service], writer!, WARMUP_SECONDS, 'Warm-up');
    const loadStart = loadavg();
    const idleCpu = cpuShare(service.pids());
    const idle = await paceCreates([service], writer!, IDLE_SECONDS, 'Idle');
    const idleCpuPercent = idleCpu();
    const feedAtStart = await waitForFeed(target, FEED_EVENTS + [...warmup, ...idle].filter((c) => c.id !== undefined).length);
    const rss = sampleRss(service.pids());
    const rssBeforeMb = rss.now();
    let streamed = 0;
    let failedStreams = 0;
    const catchUpStart = performance.now();
    const catchUpCpu = cpuShare(service.pids());
    const creating = paceCreates([service], writer!, CATCH_UP_SECONDS, 'Catching up');
    const opened = await Promise.all(
      readers.flatMap((key) =>
        Array.from({ length: STREAMS_PER_KEY }, () =>
          countFrames(service.baseUrl, key, {
            onFrames: (count) => (streamed += count),
            onEnd: () => (failedStreams += 1),
          }).catch(() => {
            failedStreams += 1;
            return undefined;
          }),
        ),
      ),
    );
    stops.push(...opened.filter((stop): stop is () => void => stop !== undefined));
    const during = await creating;
    const rssPeakMb = rss.stop();
    const catchUpCpuPercent = catchUpCpu();
    const streamedEvents = streamed;
    const all = [...idle, ...during];
    return {
      database: target.label,
      round,
      feedEvents: FEED_EVENTS,
      streams: KEYS * STREAMS_PER_KEY,
      keys: KEYS,
      idle: durations(idle.filter((c) => c.id !== undefined).map((c) => c.tookMs)),
      catchUp: durations(during.filter((c) => c.id !== undefined).map((c) => c.tookMs)),
      catchUpSlices: slices(
        during.filter((c) => c.id !== undefined).map((c) => ({ atSeconds: (c.sentAt - catchUpStart) / 1000, ms: c.tookMs })),
        Math.max(1, Math.round(CATCH_UP_SECONDS / 6)),
      ),
      failedCreates: all.filter((c) => c.id === undefined).length,
      catchUpSeconds: CATCH_UP_SECONDS,
      rssBeforeMb,
      rssPeakMb,
      idleCpuPercent,
      catchUpCpuPercent,
      streamedEvents,
      catchUpEvents: feedAtStart * KEYS * STREAMS_PER_KEY,
      failedStreams,
      loadAverage: { start: loadStart, end: loadavg() },
    };
  } finally {
    for (const stop of stops) stop();
    await service.stop();
  }
}

/**
 * Runs the measurements asked for, writes the report under bench/results/ and prints it. Answers the
 * failed checks (creates not answered 201, events missing or received twice, streams that failed),
 * as the scenarios' answers ≥ 400 are: what the goals are read off must be a run that worked.
 */
export async function runFeedMeasurements(which: ReadonlySet<FeedMeasurement>): Promise<string[]> {
  const commit = gitCommit();
  const report: FeedReport = {
    date: new Date().toISOString(),
    commit,
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`,
    notes: [
      HAS_TASKSET
        ? `Services pinned to CPU ${SETTINGS.serverCpus} (taskset), this process (clients and readers) to CPU ${SETTINGS.clientCpus}; PostgreSQL and Redis are not pinned.`
        : 'No pinning (taskset missing or a single CPU).',
      `Creates: ${CREATES_PER_SECOND} a second at a steady rate (a slow answer does not delay the next), POST /v1/pets; latency from send to answer. RATE_LIMIT_PER_MINUTE=${SETTINGS.rateLimitPerMinute}.`,
      `open-transaction: ${INSTANCES} instances on one PostgreSQL schema, one stream reader (start=latest) on each; a transaction holding an inserted pet open ${HOLD_SECONDS} s while creates go to the first ${WRITING} instances in turn; a sample is one event received by a stream: received − create answered, both read by this process's clock (negative when the stream beat the answer). The goal's figure: the stream on the instance that takes no create; beside it, the streams on the other writing instance.`,
      `catch-up: one instance; ${FEED_EVENTS.toLocaleString('en')} events (pets inserted straight into the table); ${WARMUP_SECONDS} s of unmeasured creates, ${IDLE_SECONDS} s idle (no reader), then ${KEYS} keys × ${STREAMS_PER_KEY} streams open from the feed's start while ${CATCH_UP_SECONDS} s of creates run; RSS (VmRSS) sampled every 200 ms.`,
    ],
    openTransaction: [],
    catchUp: [],
  };
  if (which.has('open-transaction')) {
    if (!POSTGRES_URL) {
      log('open-transaction skipped: it needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL)');
      report.notes.push('open-transaction not measured: no PostgreSQL URL.');
    } else {
      const target = await postgresTarget(POSTGRES_URL);
      const created = await runCli(['keys', 'create', '--name', 'feed'], { DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { timeoutMs: 60_000 });
      const key = created.stdout.trim().split('\n').at(-1)?.trim();
      if (created.code !== 0 || !key) throw new Error(`keys create failed (${created.code}): ${created.stderr}`);
      if (!REDIS_URL) report.notes.push('open-transaction with REDIS_URL not measured: set BENCH_REDIS_URL or TEST_REDIS_URL.');
      for (let round = 1; round <= ROUNDS; round++) {
        for (const redisUrl of REDIS_URL ? [REDIS_URL, undefined] : [undefined]) {
          log(`open-transaction, round ${round}, REDIS_URL ${redisUrl ? 'set' : 'unset'}: ${HOLD_SECONDS} s held open`);
          const run = await openTransactionRun(target, key, redisUrl, round);
          log(
            `  p50 ${run.latency?.p50Ms.toFixed(0)} ms, p99 ${run.latency?.p99Ms.toFixed(0)} ms, max ${run.latency?.maxMs.toFixed(0)} ms over ${run.latency?.count} samples; ${run.missing} missing; load ${loadavg()[0]!.toFixed(2)}`,
          );
          report.openTransaction.push(run);
        }
      }
    }
  }
  if (which.has('catch-up')) {
    const targets: (() => Promise<Target>)[] = [];
    if (SETTINGS.databases.has('postgres') && POSTGRES_URL) targets.push(() => postgresTarget(POSTGRES_URL!));
    if (SETTINGS.databases.has('sqlite')) targets.push(sqliteTarget);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const makeTarget of targets) {
        log(`catch-up, round ${round}`);
        const run = await catchUpRun(makeTarget, round);
        log(
          `  idle p99 ${run.idle?.p99Ms.toFixed(0)} ms, catch-up p99 ${run.catchUp?.p99Ms.toFixed(0)} ms; RSS ${run.rssBeforeMb.toFixed(0)} → ${run.rssPeakMb.toFixed(0)} MB; load ${loadavg()[0]!.toFixed(2)}`,
        );
        report.catchUp.push(run);
      }
    }
  }
  const markdown = renderFeedMarkdown(report);
  const stem = `${report.date.slice(0, 19).replaceAll(':', '-')}-${commit}-feed`;
  for (const [name, text] of [
    [`${stem}.json`, `${JSON.stringify(report, null, 2)}\n`],
    [`${stem}.md`, markdown],
    ['latest-feed.md', markdown],
  ] as const) {
    writeFileSync(join(RESULTS_DIR, name), text);
  }
  process.stdout.write(`\n${markdown}`);
  log(`written to bench/results/${stem}.{json,md} and latest-feed.md`);
  return [
    ...report.openTransaction.flatMap((run) =>
      problems(`open-transaction, REDIS_URL ${run.redis ? 'set' : 'unset'}, round ${run.round}`, {
        'creates failed': run.failedCreates,
        'events missing': run.missing,
        'events received twice': run.duplicates,
        'held-open events out of order': run.heldOpenOutOfOrder,
      }),
    ),
    ...report.catchUp.flatMap((run) =>
      problems(`catch-up, ${run.database}, round ${run.round}`, { 'creates failed': run.failedCreates, 'streams failed': run.failedStreams }),
    ),
  ];
}

function problems(run: string, counts: Record<string, number>): string[] {
  const found = Object.entries(counts).filter(([, n]) => n > 0);
  return found.length === 0 ? [] : [`${run}: ${found.map(([what, n]) => `${n} ${what}`).join(', ')}`];
}
