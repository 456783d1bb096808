/**
 * The console's sign-in measurement (bench/console.ts) as data: each database's rounds, their
 * median and worst, the goal read off them, and the Markdown report. Pure functions (no I/O), so
 * they are unit tested (test/bench/console-report.test.ts). Nothing here is asserted anywhere: the
 * goal is reported met or missed, with the baseline's µs and the load average beside every figure.
 */
import { median } from './report.js';

/** The goal: the first page of animals shown within this long of pressing "Sign in". */
const CONSOLE_FIRST_PAGE_GOAL_MS = 1000;

export interface ConsoleRound {
  /** Pressing "Sign in" → the Animals table showing its first page of rows, as the page's clock saw it. */
  ms: number;
  /** The service's CPU (ms) over that time. */
  serviceCpuMs: number | undefined;
  /** The 1-minute load average when the round started. */
  loadAverage: number;
}

export interface ConsoleResult {
  database: string;
  animals: number;
  /** Rows on the Animals view's first page, waited for in every round. */
  rowsShown: number;
  rounds: ConsoleRound[];
  /** The bare baseline's CPU µs per request, each run of the same rounds (bench/baseline-server.js under list20's load). */
  baselineUsPerRequest: number[];
  loadAverage: { start: number[]; end: number[] };
}

export interface ConsoleFigures {
  medianMs: number;
  worstMs: number;
  medianServiceCpuMs: number | undefined;
  medianBaselineUs: number | undefined;
  goal: string;
}

export function consoleFigures(result: ConsoleResult): ConsoleFigures {
  const times = result.rounds.map((round) => round.ms);
  const cpu = result.rounds.flatMap((round) => (round.serviceCpuMs === undefined ? [] : [round.serviceCpuMs]));
  const medianMs = median(times);
  const worstMs = Math.max(...times);
  const limit = CONSOLE_FIRST_PAGE_GOAL_MS;
  const goal =
    worstMs <= limit
      ? `met: every round within ${limit} ms`
      : medianMs <= limit
        ? `missed: the median within ${limit} ms, ${times.filter((ms) => ms > limit).length} of ${times.length} rounds over`
        : `missed: the median over ${limit} ms`;
  return {
    medianMs,
    worstMs,
    medianServiceCpuMs: cpu.length > 0 ? median(cpu) : undefined,
    medianBaselineUs: result.baselineUsPerRequest.length > 0 ? median(result.baselineUsPerRequest) : undefined,
    goal,
  };
}

const fixed = (value: number | undefined, digits = 0) => (value === undefined ? '–' : value.toFixed(digits));
const load = (values: number[]) => fixed(values[0], 2);

export function renderConsoleMarkdown(report: { date: string; commit: string; machine: string; rounds: number; results: ConsoleResult[] }): string {
  const lines = [
    `# The console's first page after signing in, ${report.date.slice(0, 10)} (${report.commit})`,
    '',
    `${report.machine}. Chromium (headless, this process's CPU) presses "Sign in" with a valid key on a fresh browser context; a round ends when the Animals table shows its first page of rows (the page's own clock, \`performance.now()\`, from the submit to the animation frame after the rows are in the document). ${report.rounds} measured rounds after one unmeasured; before each, one baseline run under list20's load.`,
    '',
    `| database | animals | rows | median ms | worst ms | goal (every round ≤ ${CONSOLE_FIRST_PAGE_GOAL_MS} ms) | service CPU ms per sign-in (median, in /proc ticks of 10 ms) | baseline µs/req (median) | load average (start–end) |`,
    '| :-- | --: | --: | --: | --: | :-- | --: | --: | --: |',
  ];
  for (const result of report.results) {
    const figures = consoleFigures(result);
    lines.push(
      `| ${result.database} | ${result.animals.toLocaleString('en')} | ${result.rowsShown} | ${fixed(figures.medianMs)} | ${fixed(figures.worstMs)} | ${figures.goal} | ${fixed(figures.medianServiceCpuMs, 1)} | ${fixed(figures.medianBaselineUs)} | ${load(result.loadAverage.start)}–${load(result.loadAverage.end)} |`,
    );
  }
  lines.push('', 'Every round (ms, with the 1-minute load average at its start):', '');
  for (const result of report.results) {
    lines.push(`- ${result.database}: ${result.rounds.map((round) => `${fixed(round.ms)} (${round.loadAverage.toFixed(2)})`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
