/**
 * What a run leaves besides its table: the comparisons between scenarios, the commit measured,
 * and the summaries of CPU profiles (BENCH_PROFILE).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSummary, summariseProfile, type CpuProfile } from './profile-top.js';
import { type Comparison, type ScenarioResult, totalCpuUsPerRequest } from './report.js';
import { RESULTS_DIR, ROOT, SETTINGS } from './settings.js';

export function comparisons(results: ScenarioResult[]): Comparison[] {
  const out: Comparison[] = [];
  for (const database of new Set(results.map((r) => r.database))) {
    const find = (name: string) => results.find((r) => r.database === database && r.scenario === name);
    const cpu = (r: ScenarioResult | undefined) => (r ? totalCpuUsPerRequest(r.service) : undefined);
    const small = find('list20');
    const big = find('list20-1m');
    if (small && big) {
      const a = cpu(big);
      const b = cpu(small);
      out.push({
        database,
        label: 'list20 at 1,000,000 vs 10,000 pets',
        meaning: 'CPU µs/req at the big table ÷ at the seeded one (target ≤ 1.2)',
        ...(a && b ? { value: a / b } : {}),
      });
    }
    const one = big ?? small;
    const two = find('list20-workers2');
    if (one && two) {
      out.push({
        database,
        label: `list20, 2 workers vs 1 (${one.scenario})`,
        meaning: 'req/s with 2 workers ÷ req/s with 1',
        value: two.service.reqPerSec / one.service.reqPerSec,
      });
      const a = cpu(two);
      const b = cpu(one);
      out.push({
        database,
        label: `list20, 2 workers vs 1 (${one.scenario})`,
        meaning: 'CPU µs/req with 2 workers ÷ with 1',
        ...(a && b ? { value: a / b } : {}),
      });
    }
  }
  return out;
}

export function gitCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}

export async function printProfiles(dir: string, label: string): Promise<void> {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const summary = formatSummary(summariseProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, 25));
    const saved = join(RESULTS_DIR, `profile-${SETTINGS.profile}-${label}-${file.replace(/\.cpuprofile$/, '')}.md`);
    writeFileSync(saved, `# Profile of ${SETTINGS.profile} on ${label} (${file})\n\n${summary}`);
    process.stdout.write(`\n## Profile of ${SETTINGS.profile} on ${label} (${file}; also in ${saved})\n\n${summary}`);
  }
}
