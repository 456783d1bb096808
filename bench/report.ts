/**
 * The bench's results as data, and their renderings: the Markdown tables (CPU and throughput,
 * latency, goals) and the SVG bar chart of the ratios to the baseline. Pure functions (no I/O), so
 * they are unit tested.
 */

/** What one load run measured (one round of one scenario against one server). */
export interface RunFigures {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** The slowest answer (over rounds: the slowest of all rounds). */
  maxMs: number;
  /** Responses with a status of 400 or more (wrk's count; autocannon: non-2xx). */
  non2xx: number;
  /** Connection, read, write errors and timeouts. */
  errors: number;
  /** CPU time (user + system) of the server's processes per response, in µs. */
  serverCpuUsPerRequest?: number;
  /** CPU time of the PostgreSQL backends serving the service, per response, in µs. */
  databaseCpuUsPerRequest?: number;
  /** Largest resident set of the server's processes (summed over workers) sampled during the run, in MB. */
  peakRssMb?: number;
}

/** os.loadavg() (1, 5 and 15 minutes) when a stretch of the run began and when it ended. */
interface LoadAverages {
  start: number[];
  end: number[];
}

export interface ScenarioResult {
  database: string;
  scenario: string;
  description: string;
  /** Concurrent connections of the load generator, each waiting for its answer before the next request. */
  connections: number;
  /** Measured seconds per run. */
  seconds: number;
  /** Medians over the rounds, figure by figure. */
  service: RunFigures;
  baseline: RunFigures;
  /** The naive Fastify peer of the database (bench/peers/); absent for the scenarios it does not serve. */
  peer?: RunFigures;
  rounds: { service: RunFigures[]; baseline: RunFigures[]; peer?: RunFigures[] };
  /** Service req/s ÷ baseline req/s. */
  throughputRatio?: number;
  /** Baseline CPU µs/request ÷ service CPU µs/request (server + database). */
  cpuRatio?: number;
  /** Service CPU µs/request ÷ peer CPU µs/request (each with its database backends). */
  peerCpuRatio?: number;
  loadAverage: LoadAverages;
  problems: string[];
}

/** One goal (bench/goals.ts) read off a run's results. */
export interface GoalCheck {
  database: string;
  scenario: string;
  /** The goal in words. */
  goal: string;
  /** The bound, as `≤ 1.2` or `≥ 1.5`. */
  bound: string;
  measured?: number;
  outcome: 'met' | 'missed' | 'not measured';
  /** Why a goal was not measured. */
  reason?: string;
}

export interface Comparison {
  database: string;
  label: string;
  /** What is divided by what, in words. */
  meaning: string;
  value?: number;
}

export interface BenchReport {
  date: string;
  commit: string;
  machine: string;
  loadGenerator: string;
  settings: Record<string, string | number>;
  notes: string[];
  /** Of the whole run. */
  loadAverage: LoadAverages;
  results: ScenarioResult[];
  comparisons: Comparison[];
  goals: GoalCheck[];
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of each figure over the rounds (a figure missing from a round is left out of its median). */
export function medianFigures(rounds: RunFigures[]): RunFigures {
  const of = (pick: (figures: RunFigures) => number | undefined) => {
    const values = rounds.map(pick).filter((value): value is number => value !== undefined && Number.isFinite(value));
    return values.length === 0 ? undefined : median(values);
  };
  return {
    requests: of((f) => f.requests) ?? 0,
    reqPerSec: of((f) => f.reqPerSec) ?? 0,
    p50Ms: of((f) => f.p50Ms) ?? Number.NaN,
    p99Ms: of((f) => f.p99Ms) ?? Number.NaN,
    p999Ms: of((f) => f.p999Ms) ?? Number.NaN,
    // The slowest answer of any round, as the counts below: one slow answer in any round is worth seeing.
    maxMs: rounds.length === 0 ? Number.NaN : Math.max(...rounds.map((f) => f.maxMs)),
    // Counts are summed: one error in any round is worth seeing.
    non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
    errors: rounds.reduce((sum, f) => sum + f.errors, 0),
    ...optional(
      'serverCpuUsPerRequest',
      of((f) => f.serverCpuUsPerRequest),
    ),
    ...optional(
      'databaseCpuUsPerRequest',
      of((f) => f.databaseCpuUsPerRequest),
    ),
    ...optional(
      'peakRssMb',
      of((f) => f.peakRssMb),
    ),
  };
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

export function totalCpuUsPerRequest(figures: RunFigures): number | undefined {
  if (figures.serverCpuUsPerRequest === undefined) return undefined;
  return figures.serverCpuUsPerRequest + (figures.databaseCpuUsPerRequest ?? 0);
}

/** Both ratios of a service's figures to the baseline's. */
export function ratios(service: RunFigures, baseline: RunFigures): { throughputRatio?: number; cpuRatio?: number } {
  const serviceCpu = totalCpuUsPerRequest(service);
  const baselineCpu = baseline.serverCpuUsPerRequest;
  return {
    ...optional('throughputRatio', baseline.reqPerSec > 0 ? service.reqPerSec / baseline.reqPerSec : undefined),
    ...optional('cpuRatio', serviceCpu && baselineCpu ? baselineCpu / serviceCpu : undefined),
  };
}

/** Service CPU µs/req ÷ peer CPU µs/req, each with its database backends: below 1, the service is the cheaper. */
export function peerCpuRatio(service: RunFigures, peer: RunFigures): number | undefined {
  const serviceCpu = totalCpuUsPerRequest(service);
  const peerCpu = totalCpuUsPerRequest(peer);
  return serviceCpu && peerCpu ? serviceCpu / peerCpu : undefined;
}

function fmt(value: number | undefined, digits = 0): string {
  return value !== undefined && Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
}

function cpuCell(figures: RunFigures | undefined): string {
  if (figures === undefined) return NOT_SERVED;
  if (figures.serverCpuUsPerRequest === undefined) return '–';
  if (figures.databaseCpuUsPerRequest === undefined) return fmt(figures.serverCpuUsPerRequest);
  return `${fmt(figures.serverCpuUsPerRequest)} + ${fmt(figures.databaseCpuUsPerRequest)} db`;
}

/** In a peer's column: the peer does not serve this scenario (a missing figure is "–"). */
const NOT_SERVED = '—';

function peerCell(r: ScenarioResult, value: (peer: RunFigures) => number | undefined, digits: number): string {
  return r.peer ? fmt(value(r.peer), digits) : NOT_SERVED;
}

function loadCell(load: LoadAverages): string {
  return `${fmt(load.start[0], 2)} → ${fmt(load.end[0], 2)}`;
}

function table(header: string[], align: string[], rows: string[][]): string {
  return [header, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function cpuTable(results: ScenarioResult[]): string {
  const header = [
    'Database',
    'Scenario',
    'clients',
    'baseline µs/req',
    'peer µs/req',
    'service µs/req',
    'CPU ratio',
    'service ÷ peer CPU',
    'baseline req/s',
    'peer req/s',
    'service req/s',
    'throughput ratio',
    '≥400 / errors',
    'peak RSS MB',
    'load avg 1 min',
    'check',
  ];
  const align = [':--', ':--', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', ':--'];
  const rows = results.map((r) => [
    r.database,
    r.scenario,
    fmt(r.connections),
    fmt(r.baseline.serverCpuUsPerRequest),
    cpuCell(r.peer),
    cpuCell(r.service),
    fmt(r.cpuRatio, 3),
    r.peer ? fmt(r.peerCpuRatio, 2) : NOT_SERVED,
    fmt(r.baseline.reqPerSec),
    peerCell(r, (f) => f.reqPerSec, 0),
    fmt(r.service.reqPerSec),
    fmt(r.throughputRatio, 3),
    `${fmt(r.service.non2xx)} / ${fmt(r.service.errors)}`,
    fmt(r.service.peakRssMb),
    loadCell(r.loadAverage),
    r.problems.length > 0 ? `⚠ ${r.problems.join('; ').replaceAll('|', '/')}` : 'ok',
  ]);
  return table(header, align, rows);
}

function latencyTable(results: ScenarioResult[]): string {
  const header = [
    'Database',
    'Scenario',
    'clients',
    'service p50',
    'baseline p99',
    'peer p99',
    'service p99',
    'baseline p99.9',
    'peer p99.9',
    'service p99.9',
    'baseline max',
    'peer max',
    'service max',
  ];
  const align = [':--', ':--', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'];
  const rows = results.map((r) => [
    r.database,
    r.scenario,
    fmt(r.connections),
    fmt(r.service.p50Ms, 2),
    fmt(r.baseline.p99Ms, 2),
    peerCell(r, (f) => f.p99Ms, 2),
    fmt(r.service.p99Ms, 2),
    fmt(r.baseline.p999Ms, 2),
    peerCell(r, (f) => f.p999Ms, 2),
    fmt(r.service.p999Ms, 2),
    fmt(r.baseline.maxMs, 2),
    peerCell(r, (f) => f.maxMs, 2),
    fmt(r.service.maxMs, 2),
  ]);
  return table(header, align, rows);
}

function goalsTable(goals: GoalCheck[]): string {
  const rows = goals.map((g) => [
    g.database,
    g.scenario,
    g.goal,
    g.bound,
    fmt(g.measured, 2),
    g.outcome === 'met' ? 'met' : g.outcome === 'missed' ? '**missed**' : `not measured (${g.reason ?? '?'})`,
  ]);
  return table(['Database', 'Scenario', 'Goal', 'bound', 'measured', 'outcome'], [':--', ':--', ':--', '--:', '--:', ':--'], rows);
}

export function renderMarkdown(report: BenchReport): string {
  const loadAverage = (values: number[]) => values.map((value) => fmt(value, 2)).join(', ');
  const lines = [
    '# animal-store benchmark',
    '',
    `- Date: ${report.date}; commit ${report.commit}`,
    `- Machine: ${report.machine}`,
    `- Load average (1, 5, 15 min): ${loadAverage(report.loadAverage.start)} at the start, ${loadAverage(report.loadAverage.end)} at the end`,
    `- Load: ${report.loadGenerator}`,
    `- Settings: ${Object.entries(report.settings)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')}`,
    ...report.notes.map((note) => `- ${note}`),
    '',
    '## CPU and throughput',
    '',
    cpuTable(report.results),
    '',
    '## Latency (ms)',
    '',
    latencyTable(report.results),
    '',
  ];
  if (report.goals.length > 0) lines.push('## Goals', '', goalsTable(report.goals), '');
  if (report.comparisons.length > 0) {
    lines.push('## Comparisons', '', '| Database | Comparison | value | meaning |', '| :-- | :-- | --: | :-- |');
    for (const c of report.comparisons) lines.push(`| ${c.database} | ${c.label} | ${fmt(c.value, 3)} | ${c.meaning} |`);
    lines.push('');
  }
  lines.push('## Scenarios', '', ...uniqueBy(report.results, (r) => r.scenario).map((r) => `- **${r.scenario}**: ${r.description}`), '');
  return lines.join('\n');
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A horizontal bar chart, two bars per scenario (CPU ratio, throughput ratio), a line at 1. */
export function renderRatiosSvg(report: BenchReport): string {
  const labelWidth = 260;
  const chartWidth = 480;
  const barHeight = 12;
  const rowHeight = 2 * barHeight + 12;
  const top = 48;
  const rows = report.results;
  const largest = Math.max(1, ...rows.flatMap((r) => [r.cpuRatio ?? 0, r.throughputRatio ?? 0]));
  const x = (value: number) => labelWidth + (Math.max(0, value) / largest) * chartWidth;
  const height = top + rows.length * rowHeight + 24;
  const width = labelWidth + chartWidth + 70;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="8" y="16" font-size="13" font-weight="bold">${escapeXml(`Ratios to a bare node:http server (1 = as cheap/fast as it); ${report.commit}, ${report.date.slice(0, 10)}`)}</text>`,
    `<rect x="8" y="26" width="10" height="10" fill="#2b6cb0"/><text x="22" y="35">CPU ratio (baseline CPU µs/req ÷ service CPU µs/req)</text>`,
    `<rect x="330" y="26" width="10" height="10" fill="#dd8a2b"/><text x="344" y="35">throughput ratio (req/s ÷ baseline req/s)</text>`,
  ];
  rows.forEach((r, index) => {
    const y = top + index * rowHeight;
    parts.push(`<text x="${labelWidth - 6}" y="${y + barHeight + 4}" text-anchor="end">${escapeXml(`${r.database} · ${r.scenario}`)}</text>`);
    for (const [offset, value, colour] of [
      [0, r.cpuRatio, '#2b6cb0'],
      [barHeight, r.throughputRatio, '#dd8a2b'],
    ] as const) {
      if (value === undefined) continue;
      parts.push(`<rect x="${labelWidth}" y="${y + offset}" width="${(x(value) - labelWidth).toFixed(1)}" height="${barHeight - 1}" fill="${colour}"/>`);
      parts.push(`<text x="${(x(value) + 4).toFixed(1)}" y="${y + offset + barHeight - 2}">${value.toFixed(3)}</text>`);
    }
  });
  parts.push(`<line x1="${x(1)}" y1="${top - 4}" x2="${x(1)}" y2="${height - 16}" stroke="#555" stroke-dasharray="3,3"/>`);
  parts.push(
    `<text x="${x(1)}" y="${height - 4}" text-anchor="middle">1</text>`,
    `<text x="${labelWidth}" y="${height - 4}" text-anchor="middle">0</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
