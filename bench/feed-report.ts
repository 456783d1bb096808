/**
 * The events feed's measurements (bench/feed.ts) as data: their figures, their goals read off
 * them, the spread between rounds, and the Markdown report. Pure functions (no I/O), so they are
 * unit tested (test/bench/feed-report.test.ts). Nothing here is asserted anywhere: a goal is
 * reported met or missed, and the load average is printed beside every figure.
 */

/** A set of durations, in ms. */
export interface Durations {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  minMs: number;
}

/** Nearest-rank percentiles of `samples` (ms); undefined when there are none. */
export function durations(samples: readonly number[]): Durations | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
  return { count: sorted.length, p50Ms: rank(0.5), p99Ms: rank(0.99), maxMs: sorted.at(-1)!, minMs: sorted[0]! };
}

/** `samples` (a time in seconds, a duration in ms) by slices of `sliceSeconds`, from 0: each slice's percentiles. */
export function slices(
  samples: readonly { atSeconds: number; ms: number }[],
  sliceSeconds: number,
): { fromSeconds: number; p50Ms: number; p99Ms: number; maxMs: number }[] {
  const bySlice = new Map<number, number[]>();
  for (const sample of samples) {
    const from = Math.max(0, Math.floor(sample.atSeconds / sliceSeconds) * sliceSeconds);
    bySlice.set(from, [...(bySlice.get(from) ?? []), sample.ms]);
  }
  return [...bySlice.entries()]
    .sort(([a], [b]) => a - b)
    .map(([fromSeconds, values]) => {
      const { p50Ms, p99Ms, maxMs } = durations(values)!;
      return { fromSeconds, p50Ms, p99Ms, maxMs };
    });
}

/** os.loadavg() at a run's start and end (1, 5 and 15 minutes). */
interface LoadAverage {
  start: number[];
  end: number[];
}

/** One run of the open-transaction measurement. */
export interface OpenTransactionRun {
  redis: boolean;
  round: number;
  holdSeconds: number;
  /** Creates answered 201 while the transaction was open. */
  creates: number;
  /** Creates that failed (status other than 201, or no answer). */
  failedCreates: number;
  /** Event received by the stream on the instance that takes no create − its create answered. */
  latency: Durations | undefined;
  /** The same on the streams of the writing instances, for the other one's events (its own commits wake them too). */
  latencyOnWriting: Durations | undefined;
  /** (reader, event) pairs never received within the wait after the commit; events received twice. */
  missing: number;
  duplicates: number;
  /** Per stream reader: the held-open event received − COMMIT returned (ms). */
  heldOpenAfterCommit: Durations | undefined;
  /** Held-open events received before the last other event, by any reader (the order broken). */
  heldOpenOutOfOrder: number;
  loadAverage: LoadAverage;
}

/** One run of the catch-up measurement. */
export interface CatchUpRun {
  database: 'SQLite' | 'PostgreSQL';
  round: number;
  feedEvents: number;
  streams: number;
  keys: number;
  /** Creates (send → answer), before any stream was opened. */
  idle: Durations | undefined;
  /** Creates while the streams read the feed from its start. */
  catchUp: Durations | undefined;
  /** The same creates by slice of the window (`fromSeconds` after the streams began to open): an opening burst or a steady cost. */
  catchUpSlices: { fromSeconds: number; p50Ms: number; p99Ms: number; maxMs: number }[];
  failedCreates: number;
  catchUpSeconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** The service's CPU (user + system) in % of one core, idle and during catch-up (its PostgreSQL backends not counted). */
  idleCpuPercent: number;
  catchUpCpuPercent: number;
  /** Events the streams received during the window, all streams together; and how many a full catch-up takes. */
  streamedEvents: number;
  catchUpEvents: number;
  /** Streams that could not open or ended on an error. */
  failedStreams: number;
  loadAverage: LoadAverage;
}

/** The goals of the issue, in one place. */
export const FEED_GOALS = {
  /** p99 of (received − answered) with a transaction held open, in ms. */
  openTransactionP99Ms: { redis: 1000, noRedis: 1200 },
  /** Creates' p99 during catch-up ÷ their idle p99. */
  catchUpP99Ratio: 2,
  /** RSS growth during catch-up, in MB. */
  catchUpRssGrowthMb: 100,
} as const;

export type Outcome = 'met' | 'missed' | 'not measured';

export function openTransactionGoal(run: OpenTransactionRun): { boundMs: number; outcome: Outcome } {
  const boundMs = run.redis ? FEED_GOALS.openTransactionP99Ms.redis : FEED_GOALS.openTransactionP99Ms.noRedis;
  if (!run.latency || run.missing > 0) return { boundMs, outcome: run.latency ? 'missed' : 'not measured' };
  return { boundMs, outcome: run.latency.p99Ms <= boundMs ? 'met' : 'missed' };
}

export function catchUpGoals(run: CatchUpRun): { p99Ratio: number | undefined; ratioOutcome: Outcome; rssGrowthMb: number; rssOutcome: Outcome } {
  const p99Ratio = run.idle && run.catchUp ? run.catchUp.p99Ms / run.idle.p99Ms : undefined;
  const rssGrowthMb = run.rssPeakMb - run.rssBeforeMb;
  return {
    p99Ratio,
    ratioOutcome: p99Ratio === undefined ? 'not measured' : p99Ratio <= FEED_GOALS.catchUpP99Ratio ? 'met' : 'missed',
    rssGrowthMb,
    rssOutcome: rssGrowthMb <= FEED_GOALS.catchUpRssGrowthMb ? 'met' : 'missed',
  };
}

/** How far apart rounds were: the largest figure ÷ the smallest (1 = identical); undefined with fewer than two. */
export function spread(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (known.length < 2) return undefined;
  const min = Math.min(...known);
  const max = Math.max(...known);
  return min <= 0 ? undefined : max / min;
}

export interface FeedReport {
  date: string;
  commit: string;
  machine: string;
  notes: string[];
  openTransaction: OpenTransactionRun[];
  catchUp: CatchUpRun[];
}

const ms = (value: number | undefined) => (value === undefined ? '—' : value >= 100 ? value.toFixed(0) : value.toFixed(1));
const mb = (value: number) => value.toFixed(0);
const load = (average: LoadAverage) => `${average.start[0]!.toFixed(2)}–${average.end[0]!.toFixed(2)}`;
const times = (value: number | undefined) => (value === undefined ? '—' : `×${value.toFixed(2)}`);

export function renderFeedMarkdown(report: FeedReport): string {
  const lines = [
    `# Events feed measurements, ${report.date.slice(0, 19)}Z, commit ${report.commit}`,
    '',
    `Machine: ${report.machine}.`,
    '',
    ...report.notes.map((note) => `- ${note}`),
    '',
  ];
  if (report.openTransaction.length > 0) {
    lines.push(
      '## A transaction held open: event received on another instance − create answered',
      '',
      `Goal: p99 ≤ ${FEED_GOALS.openTransactionP99Ms.redis} ms with Redis, ≤ ${FEED_GOALS.openTransactionP99Ms.noRedis} ms without.`,
      '',
      '| REDIS_URL | round | creates | samples | p50 ms | p99 ms | max ms | min ms | on a writing instance: p50 / p99 / max ms | missing | twice | held-open event after its COMMIT, max ms | goal | load average (1 min, start–end) |',
      '| :-- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | :-- | --: |',
    );
    for (const run of report.openTransaction) {
      const goal = openTransactionGoal(run);
      const failed = run.failedCreates > 0 ? ` (${run.failedCreates} failed)` : '';
      const order = run.heldOpenOutOfOrder > 0 ? ` (${run.heldOpenOutOfOrder} out of order)` : '';
      lines.push(
        `| ${run.redis ? 'set' : 'unset'} | ${run.round} | ${run.creates}${failed} | ${run.latency?.count ?? 0} | ${ms(run.latency?.p50Ms)} | ${ms(run.latency?.p99Ms)} | ${ms(run.latency?.maxMs)} | ${ms(run.latency?.minMs)} | ${ms(run.latencyOnWriting?.p50Ms)} / ${ms(run.latencyOnWriting?.p99Ms)} / ${ms(run.latencyOnWriting?.maxMs)} | ${run.missing} | ${run.duplicates} | ${ms(run.heldOpenAfterCommit?.maxMs)}${order} | ${goal.outcome} (≤ ${goal.boundMs}) | ${load(run.loadAverage)} |`,
      );
    }
    lines.push('');
    for (const redis of [true, false]) {
      const runs = report.openTransaction.filter((run) => run.redis === redis);
      if (runs.length < 2) continue;
      lines.push(
        `- REDIS_URL ${redis ? 'set' : 'unset'}, rounds apart (largest ÷ smallest): p50 ${times(spread(runs.map((r) => r.latency?.p50Ms)))}, p99 ${times(spread(runs.map((r) => r.latency?.p99Ms)))}, max ${times(spread(runs.map((r) => r.latency?.maxMs)))}.`,
      );
    }
    lines.push('');
  }
  if (report.catchUp.length > 0) {
    lines.push(
      '## Streams catching up: creates and memory while many streams read the feed from its start',
      '',
      `Goals: creates' p99 during catch-up ≤ ${FEED_GOALS.catchUpP99Ratio}× their idle p99; RSS growth ≤ ${FEED_GOALS.catchUpRssGrowthMb} MB.`,
      '',
      '| database | round | idle p50 / p99 ms | catch-up p50 / p99 ms | p99 ÷ idle p99 | RSS before / peak MB | growth MB | service CPU % idle / catch-up | events streamed (share of the catch-up) | goals (p99, RSS) | load average (1 min, start–end) |',
      '| :-- | --: | --: | --: | --: | --: | --: | --: | --: | :-- | --: |',
    );
    for (const run of report.catchUp) {
      const goals = catchUpGoals(run);
      const problems = [run.failedCreates > 0 ? `${run.failedCreates} creates failed` : '', run.failedStreams > 0 ? `${run.failedStreams} streams failed` : '']
        .filter(Boolean)
        .join(', ');
      lines.push(
        `| ${run.database} | ${run.round} | ${ms(run.idle?.p50Ms)} / ${ms(run.idle?.p99Ms)} | ${ms(run.catchUp?.p50Ms)} / ${ms(run.catchUp?.p99Ms)} | ${goals.p99Ratio === undefined ? '—' : goals.p99Ratio.toFixed(2)} | ${mb(run.rssBeforeMb)} / ${mb(run.rssPeakMb)} | ${mb(goals.rssGrowthMb)} | ${run.idleCpuPercent.toFixed(0)} / ${run.catchUpCpuPercent.toFixed(0)} | ${run.streamedEvents.toLocaleString('en')} (${((100 * run.streamedEvents) / run.catchUpEvents).toFixed(1)} %) | ${goals.ratioOutcome}, ${goals.rssOutcome}${problems ? `; ${problems}` : ''} | ${load(run.loadAverage)} |`,
      );
    }
    lines.push('');
    for (const database of ['SQLite', 'PostgreSQL'] as const) {
      const runs = report.catchUp.filter((run) => run.database === database);
      if (runs.length < 2) continue;
      const ratios = runs.map((run) => catchUpGoals(run).p99Ratio);
      for (const run of runs) {
        lines.push(
          `- ${database}, round ${run.round}, creates during catch-up by slice (p50 / p99 / max ms): ${run.catchUpSlices.map((slice) => `from ${slice.fromSeconds} s ${ms(slice.p50Ms)} / ${ms(slice.p99Ms)} / ${ms(slice.maxMs)}`).join('; ')}.`,
        );
      }
      const growths = runs.map((run) => catchUpGoals(run).rssGrowthMb);
      lines.push(
        `- ${database}, rounds apart (largest ÷ smallest): idle p99 ${times(spread(runs.map((r) => r.idle?.p99Ms)))}, catch-up p99 ${times(spread(runs.map((r) => r.catchUp?.p99Ms)))}, p99 ÷ idle p99 ${times(spread(ratios))}; RSS growth ${growths.map(mb).join(' and ')} MB.`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
