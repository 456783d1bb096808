/**
 * The pure parts of the events feed's measurements (bench/feed-report.ts): percentiles, slices,
 * the goals read off a run, the spread between rounds and the Markdown. Nothing here measures time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CatchUpRun,
  catchUpGoals,
  durations,
  FEED_GOALS,
  type OpenTransactionRun,
  openTransactionGoal,
  renderFeedMarkdown,
  slices,
  spread,
} from '../../bench/feed-report.js';

const load = { start: [1.5, 1, 1], end: [2.25, 1, 1] };

const openRun = (over: Partial<OpenTransactionRun>): OpenTransactionRun => ({
  redis: true,
  round: 1,
  holdSeconds: 20,
  creates: 400,
  failedCreates: 0,
  latency: durations([10, 20, 900]),
  latencyOnWriting: durations([5, 6]),
  missing: 0,
  duplicates: 0,
  heldOpenAfterCommit: durations([50, 60]),
  heldOpenOutOfOrder: 0,
  loadAverage: load,
  ...over,
});

const catchUpRun = (over: Partial<CatchUpRun>): CatchUpRun => ({
  database: 'PostgreSQL',
  round: 1,
  feedEvents: 26_000,
  streams: 200,
  keys: 40,
  idle: durations([5, 10]),
  catchUp: durations([8, 20]),
  catchUpSlices: [{ fromSeconds: 0, p50Ms: 8, p99Ms: 20, maxMs: 20 }],
  failedCreates: 0,
  catchUpSeconds: 30,
  rssBeforeMb: 120,
  rssPeakMb: 180,
  idleCpuPercent: 12,
  catchUpCpuPercent: 97.6,
  streamedEvents: 260_000,
  catchUpEvents: 5_200_000,
  failedStreams: 0,
  loadAverage: load,
  ...over,
});

describe('feed measurements report', () => {
  it('durations > nearest-rank percentiles of the samples; none for no sample', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual(durations(hundred), { count: 100, p50Ms: 50, p99Ms: 99, maxMs: 100, minMs: 1 });
    assert.deepEqual(durations([-3, 7]), { count: 2, p50Ms: -3, p99Ms: 7, maxMs: 7, minMs: -3 });
    assert.equal(durations([]), undefined);
  });

  it('slices > samples grouped by their time, in order, each with its percentiles', () => {
    const samples = [
      { atSeconds: 6.5, ms: 30 },
      { atSeconds: 0.1, ms: 10 },
      { atSeconds: 4.9, ms: 20 },
      { atSeconds: -0.01, ms: 5 },
    ];
    assert.deepEqual(slices(samples, 5), [
      { fromSeconds: 0, p50Ms: 10, p99Ms: 20, maxMs: 20 },
      { fromSeconds: 5, p50Ms: 30, p99Ms: 30, maxMs: 30 },
    ]);
  });

  it('the open-transaction goal > p99 against the bound of its Redis setting; missed when an event never came', () => {
    assert.deepEqual(openTransactionGoal(openRun({ latency: durations([FEED_GOALS.openTransactionP99Ms.redis]) })), { boundMs: 1000, outcome: 'met' });
    assert.deepEqual(openTransactionGoal(openRun({ latency: durations([1100]) })), { boundMs: 1000, outcome: 'missed' });
    assert.deepEqual(openTransactionGoal(openRun({ redis: false, latency: durations([1100]) })), { boundMs: 1200, outcome: 'met' });
    assert.deepEqual(openTransactionGoal(openRun({ missing: 1 })), { boundMs: 1000, outcome: 'missed' });
    assert.deepEqual(openTransactionGoal(openRun({ latency: undefined })), { boundMs: 1000, outcome: 'not measured' });
  });

  it('the catch-up goals > p99 within twice the idle p99, RSS growth within 100 MB', () => {
    assert.deepEqual(catchUpGoals(catchUpRun({})), { p99Ratio: 2, ratioOutcome: 'met', rssGrowthMb: 60, rssOutcome: 'met' });
    const missed = catchUpGoals(catchUpRun({ catchUp: durations([30]), rssPeakMb: 221 }));
    assert.deepEqual(missed, { p99Ratio: 3, ratioOutcome: 'missed', rssGrowthMb: 101, rssOutcome: 'missed' });
    assert.equal(catchUpGoals(catchUpRun({ idle: undefined })).ratioOutcome, 'not measured');
  });

  it('spread > the largest ÷ the smallest of the known figures; none with fewer than two', () => {
    assert.equal(spread([100, 150, undefined]), 1.5);
    assert.equal(spread([100, undefined]), undefined);
    assert.equal(spread([0, 5]), undefined);
  });

  it('the Markdown > a row per run with its goal and load average, and how far apart the rounds were', () => {
    const markdown = renderFeedMarkdown({
      date: '2026-11-28T00:00:00.000Z',
      commit: 'abc1234',
      machine: '2 × a CPU',
      notes: ['a note'],
      openTransaction: [openRun({}), openRun({ round: 2, latency: durations([10, 20, 450]) })],
      catchUp: [catchUpRun({}), catchUpRun({ round: 2, rssPeakMb: 240 })],
    });
    assert.match(markdown, /^# Events feed measurements, 2026-11-28T00:00:00Z, commit abc1234$/m);
    assert.match(markdown, /^- a note$/m);
    assert.match(
      markdown,
      /^\| set \| 1 \| 400 \| 3 \| 20\.0 \| 900 \| 900 \| 10\.0 \| 5\.0 \/ 6\.0 \/ 6\.0 \| 0 \| 0 \| 60\.0 \| met \(≤ 1000\) \| 1\.50–2\.25 \|$/m,
    );
    assert.match(markdown, /^- REDIS_URL set, rounds apart \(largest ÷ smallest\): p50 ×1\.00, p99 ×2\.00, max ×2\.00\.$/m);
    assert.match(
      markdown,
      /^\| PostgreSQL \| 2 \| 5\.0 \/ 10\.0 \| 8\.0 \/ 20\.0 \| 2\.00 \| 120 \/ 240 \| 120 \| 12 \/ 98 \| 260,000 \(5\.0 %\) \| met, missed \| 1\.50–2\.25 \|$/m,
    );
    assert.match(
      markdown,
      /^- PostgreSQL, rounds apart \(largest ÷ smallest\): idle p99 ×1\.00, catch-up p99 ×1\.00, p99 ÷ idle p99 ×1\.00; RSS growth 60 and 120 MB\.$/m,
    );
  });
});
