/**
 * The pure parts of the benchmark (bench/report.ts, bench/goals.ts, bench/profile-top.ts):
 * medians, ratios, the goals read off results, the Markdown tables, the SVG chart and the
 * CPU-profile summary. Nothing here measures time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkGoals, GOALS } from '../../bench/goals.js';
import { type CpuProfile, formatSummary, packageOf, summariseProfile } from '../../bench/profile-top.js';
import {
  type BenchReport,
  median,
  medianFigures,
  peerCpuRatio,
  ratios,
  renderMarkdown,
  renderRatiosSvg,
  type RunFigures,
  type ScenarioResult,
} from '../../bench/report.js';
import { scenarios } from '../../bench/scenarios.js';

const figures = (over: Partial<RunFigures>): RunFigures => ({
  requests: 1000,
  reqPerSec: 100,
  p50Ms: 1,
  p99Ms: 2,
  p999Ms: 3,
  maxMs: 4,
  non2xx: 0,
  errors: 0,
  ...over,
});

const result = (over: Partial<ScenarioResult> & Pick<ScenarioResult, 'database' | 'scenario'>): ScenarioResult => ({
  description: 'a scenario',
  connections: 50,
  seconds: 10,
  service: figures({}),
  baseline: figures({}),
  rounds: { service: [], baseline: [] },
  loadAverage: { start: [1, 2, 3], end: [4, 5, 6] },
  problems: [],
  ...over,
});

describe('bench report', () => {
  it('takes the median of each figure, the slowest answer of all rounds, and sums the error counts', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 2, 3]), 2.5);
    const merged = medianFigures([
      figures({ reqPerSec: 100, serverCpuUsPerRequest: 50, non2xx: 1, maxMs: 7 }),
      figures({ reqPerSec: 300, serverCpuUsPerRequest: 10, errors: 2, maxMs: 31 }),
      figures({ reqPerSec: 200, serverCpuUsPerRequest: 30, maxMs: 5 }),
    ]);
    assert.equal(merged.reqPerSec, 200);
    assert.equal(merged.serverCpuUsPerRequest, 30);
    assert.equal(merged.maxMs, 31);
    assert.equal(merged.non2xx, 1);
    assert.equal(merged.errors, 2);
    assert.equal(merged.databaseCpuUsPerRequest, undefined);
  });

  it('divides throughput by the baseline, and the baseline CPU by the service CPU, database included', () => {
    const baseline = figures({ reqPerSec: 1000, serverCpuUsPerRequest: 20 });
    assert.deepEqual(ratios(figures({ reqPerSec: 250, serverCpuUsPerRequest: 80 }), baseline), { throughputRatio: 0.25, cpuRatio: 0.25 });
    assert.deepEqual(ratios(figures({ reqPerSec: 100, serverCpuUsPerRequest: 60, databaseCpuUsPerRequest: 40 }), baseline), {
      throughputRatio: 0.1,
      cpuRatio: 0.2,
    });
    assert.deepEqual(ratios(figures({ reqPerSec: 100 }), baseline), { throughputRatio: 0.1 });
  });

  it('divides the service CPU by the peer CPU, the database backends of each included', () => {
    assert.equal(
      peerCpuRatio(figures({ serverCpuUsPerRequest: 90, databaseCpuUsPerRequest: 30 }), figures({ serverCpuUsPerRequest: 60, databaseCpuUsPerRequest: 40 })),
      1.2,
    );
    assert.equal(peerCpuRatio(figures({ serverCpuUsPerRequest: 40 }), figures({ serverCpuUsPerRequest: 80 })), 0.5);
    assert.equal(peerCpuRatio(figures({}), figures({ serverCpuUsPerRequest: 80 })), undefined);
  });

  const report: BenchReport = {
    date: '2026-11-26T06:00:00.000Z',
    commit: 'abc1234',
    machine: '2 × test CPU',
    loadGenerator: 'wrk',
    settings: { BENCH_SECONDS: 3 },
    notes: ['a note'],
    loadAverage: { start: [0.5, 0.25, 0.125], end: [2, 1.5, 1] },
    results: [
      result({
        database: 'PostgreSQL',
        scenario: 'list20',
        description: 'GET /v1/pets?limit=20',
        service: figures({ reqPerSec: 500, serverCpuUsPerRequest: 150, databaseCpuUsPerRequest: 50, p99Ms: 2, p999Ms: 3, maxMs: 12 }),
        baseline: figures({ reqPerSec: 2000, serverCpuUsPerRequest: 20, p99Ms: 0.5, p999Ms: 0.75, maxMs: 1.5 }),
        peer: figures({ reqPerSec: 900, serverCpuUsPerRequest: 100, databaseCpuUsPerRequest: 60, p99Ms: 1.25, p999Ms: 2.5, maxMs: 9 }),
        throughputRatio: 0.25,
        cpuRatio: 0.1,
        peerCpuRatio: 1.25,
        loadAverage: { start: [1.5, 1, 1], end: [2.25, 1, 1] },
        problems: ['3 responses ≥ 400'],
      }),
      result({
        database: 'PostgreSQL',
        scenario: 'createPet',
        connections: 16,
        service: figures({ reqPerSec: 300, serverCpuUsPerRequest: 200 }),
        baseline: figures({ reqPerSec: 2000, serverCpuUsPerRequest: 20 }),
        throughputRatio: 0.15,
        cpuRatio: 0.1,
      }),
    ],
    comparisons: [{ database: 'PostgreSQL', label: 'list20 at 1,000,000 vs 10,000 pets', meaning: 'ratio', value: 1.05 }],
    goals: [
      { database: 'PostgreSQL', scenario: 'list20', goal: 'CPU ÷ the peer’s', bound: '≤ 1.2', measured: 1.25, outcome: 'missed' },
      { database: 'SQLite', scenario: 'list20', goal: 'peer µs ÷ service µs', bound: '≥ 1.5', outcome: 'not measured', reason: 'list20 not run on SQLite' },
    ],
  };

  it('renders a CPU row per scenario: baseline, peer and service µs, both ratios, the load average and the failed checks', () => {
    const markdown = renderMarkdown(report);
    assert.match(
      markdown,
      /\| PostgreSQL \| list20 \| 50 \| 20 \| 100 \+ 60 db \| 150 \+ 50 db \| 0\.100 \| 1\.25 \| 2,000 \| 900 \| 500 \| 0\.250 \| 0 \/ 0 \| – \| 1\.50 → 2\.25 \| ⚠ 3 responses ≥ 400 \|/,
    );
    assert.match(markdown, /- Load average \(1, 5, 15 min\): 0\.50, 0\.25, 0\.13 at the start, 2\.00, 1\.50, 1\.00 at the end/);
    assert.match(markdown, /\| PostgreSQL \| list20 at 1,000,000 vs 10,000 pets \| 1\.050 \| ratio \|/);
    assert.match(markdown, /- \*\*list20\*\*: GET \/v1\/pets\?limit=20/);
  });

  it('renders a latency row per scenario: p99, p99.9 and max of the baseline, the peer and the service', () => {
    assert.match(
      renderMarkdown(report),
      /\| PostgreSQL \| list20 \| 50 \| 1\.00 \| 0\.50 \| 1\.25 \| 2\.00 \| 0\.75 \| 2\.50 \| 3\.00 \| 1\.50 \| 9\.00 \| 12\.00 \|/,
    );
  });

  it('shows "—" in the peer columns of a scenario the peer does not serve', () => {
    const markdown = renderMarkdown(report);
    assert.match(markdown, /\| PostgreSQL \| createPet \| 16 \| 20 \| — \| 200 \| 0\.100 \| — \| 2,000 \| — \| 300 \| 0\.150 \|/);
    assert.match(markdown, /\| PostgreSQL \| createPet \| 16 \| 1\.00 \| 2\.00 \| — \| 2\.00 \| 3\.00 \| — \| 3\.00 \| 4\.00 \| — \| 4\.00 \|/);
  });

  it('lists the goals as met, missed or not measured, with the reason', () => {
    const markdown = renderMarkdown(report);
    assert.match(markdown, /\| PostgreSQL \| list20 \| CPU ÷ the peer’s \| ≤ 1\.2 \| 1\.25 \| \*\*missed\*\* \|/);
    assert.match(markdown, /\| SQLite \| list20 \| peer µs ÷ service µs \| ≥ 1\.5 \| – \| not measured \(list20 not run on SQLite\) \|/);
  });

  it('draws two bars per scenario, scaled so that 1 is the baseline', () => {
    const svg = renderRatiosSvg(report);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /PostgreSQL · list20/);
    // The axis ends at 1 (no ratio above it): 480 px for 1, so 0.1 is 48 px and 0.25 is 120 px.
    assert.match(svg, /<rect x="260" y="48" width="48\.0" height="11" fill="#2b6cb0"\/>/);
    assert.match(svg, /<rect x="260" y="60" width="120\.0" height="11" fill="#dd8a2b"\/>/);
    assert.equal(svg.match(/<rect /g)?.length, 7);
  });
});

describe('bench goals', () => {
  const postgres = (scenario: string, over: Partial<ScenarioResult>) => result({ database: 'PostgreSQL', scenario, ...over });
  const outcome = (results: ScenarioResult[], database: string, scenario: string, goal: RegExp) =>
    checkGoals(results).find((c) => c.database === database && c.scenario === scenario && goal.test(c.goal));

  it('meets a bound at most at its value and misses it just above', () => {
    assert.deepEqual(
      [1.2, 1.21].map((ratio) => outcome([postgres('getPet', { peer: figures({}), peerCpuRatio: ratio })], 'PostgreSQL', 'getPet', /CPU/)?.outcome),
      ['met', 'missed'],
    );
  });

  it('reads the SQLite goal as the peer’s CPU over the service’s, at least 1.5', () => {
    const check = (ratio: number) =>
      outcome([result({ database: 'SQLite', scenario: 'list20', peer: figures({}), peerCpuRatio: ratio })], 'SQLite', 'list20', /CPU ratio/);
    assert.deepEqual(check(0.5), { database: 'SQLite', scenario: 'list20', goal: GOALS[3]!.goal, bound: '≥ 1.5', measured: 2, outcome: 'met' });
    assert.equal(check(0.7)?.outcome, 'missed');
  });

  it('compares list20’s p99 with the peer’s at 50 connections only', () => {
    const list20 = (connections: number) => postgres('list20', { connections, service: figures({ p99Ms: 5 }), peer: figures({ p99Ms: 2 }) });
    assert.deepEqual(pick(outcome([list20(50)], 'PostgreSQL', 'list20', /p99/)), { measured: 2.5, outcome: 'missed' });
    assert.deepEqual(pick(outcome([list20(64)], 'PostgreSQL', 'list20', /p99/)), { outcome: 'not measured', reason: 'run at 64 connections' });
  });

  it('bounds the tail of 16 sequential clients by p99.9 and the slowest answer', () => {
    const results = [postgres('list20-seq16', { connections: 16, service: figures({ p999Ms: 14, maxMs: 31 }) })];
    assert.deepEqual(pick(outcome(results, 'PostgreSQL', 'list20-seq16', /p99\.9/)), { measured: 14, outcome: 'met' });
    assert.deepEqual(pick(outcome(results, 'PostgreSQL', 'list20-seq16', /max/)), { measured: 31, outcome: 'missed' });
  });

  it('says a goal was not measured when its scenario did not run or the peer did not serve it', () => {
    assert.deepEqual(pick(outcome([], 'PostgreSQL', 'getPet', /CPU/)), { outcome: 'not measured', reason: 'getPet not run on PostgreSQL' });
    assert.deepEqual(pick(outcome([postgres('getPet', {})], 'PostgreSQL', 'getPet', /CPU/)), { outcome: 'not measured', reason: 'no figure' });
  });

  it('names only scenarios the bench runs', () => {
    const names = scenarios({ target: undefined as never, key: '', seeded: { first: 1, last: 1 }, cursorSecret: 'x'.repeat(32) }).map((s) => s.name);
    for (const goal of GOALS) assert.ok(names.includes(goal.scenario), goal.scenario);
  });
});

function pick(check: ReturnType<typeof checkGoals>[number] | undefined) {
  if (!check) return undefined;
  const { measured, outcome, reason } = check;
  return { ...(measured === undefined ? {} : { measured }), outcome, ...(reason === undefined ? {} : { reason }) };
}

describe('bench profile summary', () => {
  const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });
  const profile: CpuProfile = {
    startTime: 0,
    endTime: 100,
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('prepare', 'file:///app/node_modules/better-sqlite3/lib/methods/wrappers.js', 3) },
      { id: 4, callFrame: frame('listPets', 'file:///app/dist/pets/pets.service.js', 9) },
      { id: 5, callFrame: frame('digest', 'node:internal/crypto/hash', 163) },
      { id: 6, callFrame: frame('compile', 'file:///app/node_modules/@scope/pkg/index.js', 0) },
    ],
    // Sample i stands for the time until the next sample: timeDeltas[i + 1].
    samples: [3, 3, 4, 2, 5, 6],
    timeDeltas: [0, 30, 30, 20, 100, 10, 10],
  };

  it('charges each sample to the function on top, without the idle time', () => {
    const summary = summariseProfile(profile, 2);
    assert.equal(summary.totalMicros, 200);
    assert.equal(summary.busyMicros, 100);
    assert.deepEqual(
      summary.functions.map((f) => [f.label, f.micros]),
      [
        ['prepare node_modules/better-sqlite3/lib/methods/wrappers.js:4', 60],
        ['listPets dist/pets/pets.service.js:10', 20],
      ],
    );
    assert.deepEqual(
      summary.packages.map((p) => [p.label, p.micros, p.share]),
      [
        ['better-sqlite3', 60, 0.6],
        ['animal-store (own code)', 20, 0.2],
        ['node (built-in)', 10, 0.1],
        ['@scope/pkg', 10, 0.1],
      ],
    );
    assert.match(formatSummary(summary), /\| 0\.1 \| 60\.0 % \| better-sqlite3 \|/);
  });

  it('names the package of a frame', () => {
    assert.equal(packageOf(frame('(garbage collector)')), '(garbage collector)');
    assert.equal(packageOf(frame('writeString')), '(native)');
    assert.equal(packageOf(frame('x', 'file:///a/node_modules/fastify/lib/route.js')), 'fastify');
  });
});
