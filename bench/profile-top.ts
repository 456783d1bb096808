/**
 * Summarises a V8 CPU profile (`node --cpu-prof` writes one at exit): the functions with the most
 * self time, and the self time grouped per package (node_modules/<package>), so hot spots show.
 *
 *   npx tsx bench/profile-top.ts FILE.cpuprofile [TOP]     (TOP: 25 by default)
 *
 * `npm run bench` with BENCH_PROFILE=<scenario> runs this on the profile it records.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

interface SelfTime {
  label: string;
  micros: number;
  /** Share of the busy time (all samples but `(idle)`). */
  share: number;
}

export interface ProfileSummary {
  totalMicros: number;
  busyMicros: number;
  functions: SelfTime[];
  packages: SelfTime[];
}

/** Where a frame's code comes from: a package, Node itself, V8's own entries, or this project. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (built-in)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  return 'animal-store (own code)';
}

function frameLabel(frame: CallFrame): string {
  const where = frame.url === '' ? '' : ` ${frame.url.replace(/^file:\/\/.*?\/(node_modules|dist|src|bench)\//, '$1/')}:${frame.lineNumber + 1}`;
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** Self time per sample: each sample's time delta is charged to the function on top of the stack. */
export function summariseProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  let idle = 0;
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!);
    // timeDeltas[i] is the time before sample i; the time a sample stands for is the next delta.
    const micros = Math.max(0, deltas[i + 1] ?? 0);
    if (!node) continue;
    total += micros;
    if (node.callFrame.functionName === '(idle)') {
      idle += micros;
      continue;
    }
    const label = frameLabel(node.callFrame);
    functions.set(label, (functions.get(label) ?? 0) + micros);
    const pkg = packageOf(node.callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const busy = total - idle;
  const ranked = (map: Map<string, number>, limit: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([label, micros]) => ({ label, micros, share: busy > 0 ? micros / busy : 0 }));
  return { totalMicros: total, busyMicros: busy, functions: ranked(functions, top), packages: ranked(packages, Number.POSITIVE_INFINITY) };
}

export function formatSummary(summary: ProfileSummary): string {
  const ms = (micros: number) => (micros / 1000).toFixed(1);
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  const lines = [
    `Profile: ${ms(summary.totalMicros)} ms sampled, ${ms(summary.busyMicros)} ms busy (not idle); shares are of the busy time.`,
    '',
    `Top ${summary.functions.length} functions by self time:`,
    '',
    '| self ms | share | function |',
    '| --: | --: | :-- |',
    ...summary.functions.map((f) => `| ${ms(f.micros)} | ${pct(f.share)} | \`${f.label}\` |`),
    '',
    'Self time per package:',
    '',
    '| self ms | share | package |',
    '| --: | --: | :-- |',
    ...summary.packages.map((p) => `| ${ms(p.micros)} | ${pct(p.share)} | ${p.label} |`),
  ];
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profile-top.ts FILE.cpuprofile [TOP]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(formatSummary(summariseProfile(profile, top ? Number(top) : 25)));
}
