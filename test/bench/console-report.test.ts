/**
 * The pure parts of the console's sign-in measurement (bench/console-report.ts): the median and the
 * worst round, the goal read off them, and the Markdown with the baseline and the load beside the
 * figures. Nothing here measures time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consoleFigures, type ConsoleResult, renderConsoleMarkdown } from '../../bench/console-report.js';

const result = (times: number[]): ConsoleResult => ({
  database: 'SQLite',
  animals: 10_000,
  rowsShown: 25,
  rounds: times.map((ms, i) => ({ ms, serviceCpuMs: 10 + i, loadAverage: 2 + i / 4 })),
  baselineUsPerRequest: [18, 16, 40],
  loadAverage: { start: [2.5, 1, 1], end: [3.25, 1, 1] },
});

describe('consoleFigures', () => {
  it('every round within 1 s > the goal is met, with the median and the worst', () => {
    assert.deepEqual(consoleFigures(result([300, 900, 1000])), {
      medianMs: 900,
      worstMs: 1000,
      medianServiceCpuMs: 11,
      medianBaselineUs: 18,
      goal: 'met: every round within 1000 ms',
    });
  });

  it('the median within 1 s but one round over > missed, the rounds over counted', () => {
    assert.equal(consoleFigures(result([300, 400, 1001])).goal, 'missed: the median within 1000 ms, 1 of 3 rounds over');
  });

  it('the median over 1 s > missed', () => {
    assert.equal(consoleFigures(result([1200, 1100, 300])).goal, 'missed: the median over 1000 ms');
  });
});

describe('renderConsoleMarkdown', () => {
  it('one database > a row with the figures, the baseline and the load average, then every round', () => {
    const markdown = renderConsoleMarkdown({
      date: '2026-11-28T23:00:00Z',
      commit: 'abc1234',
      machine: '2 × CPU',
      rounds: 3,
      results: [result([300, 900, 1000])],
    });
    assert.match(markdown, /^# The console's first page after signing in, 2026-11-28 \(abc1234\)$/m);
    assert.match(markdown, /^\| SQLite \| 10,000 \| 25 \| 900 \| 1000 \| met: every round within 1000 ms \| 11\.0 \| 18 \| 2\.50–3\.25 \|$/m);
    assert.match(markdown, /^- SQLite: 300 \(2\.00\), 900 \(2\.25\), 1000 \(2\.50\)$/m);
  });
});
