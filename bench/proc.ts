/**
 * /proc readings: the CPU seconds and resident memory of the processes the bench measures.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clockTicksPerSecond: number | undefined;

/** CPU seconds (user + system) a process has used so far; undefined when it is gone or off Linux. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
  } catch {
    return undefined;
  }
}

/** The processes of a server: the process itself and its children (the workers of `--workers N`). */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
