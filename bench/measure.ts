/**
 * One scenario measured: a request first to check it, then rounds of one baseline run, one peer
 * run (when the peer serves the scenario) and one service run, each with the servers' CPU and
 * memory (and the PostgreSQL backends' CPU) read around the load; the medians and ratios go to the
 * report.
 */
import { loadavg } from 'node:os';
import { type RunFigures, medianFigures, peerCpuRatio, ratios, type ScenarioResult, totalCpuUsPerRequest } from './report.js';
import { type LoadResult, load } from './load.js';
import { processCpuSeconds, residentMb } from './proc.js';
import type { Scenario } from './scenarios.js';
import type { Server } from './servers.js';
import { log, SETTINGS } from './settings.js';

/** One measured run: the load, the server's CPU and memory, and the database backends' CPU. */
export async function measureRun(server: Server, scenario: Scenario): Promise<RunFigures> {
  const { spec, connections, seconds } = scenario;
  if (SETTINGS.warmupSeconds > 0) await load(server.baseUrl, { ...spec, idRange: spec.warmupIdRange ?? spec.idRange }, SETTINGS.warmupSeconds, connections);
  const pids = server.pids();
  const cpuBefore = pids.map((pid) => processCpuSeconds(pid));
  const dbBefore = await server.backendCpu?.();
  let peakRss = 0;
  const sampleRss = () => {
    const total = server.pids().reduce((sum, pid) => sum + (residentMb(pid, 'VmRSS') ?? 0), 0);
    peakRss = Math.max(peakRss, total);
  };
  // Reading a small /proc file five times a second from the client core costs next to nothing.
  const sampler = setInterval(sampleRss, 200);
  let result: LoadResult;
  try {
    result = await load(server.baseUrl, spec, seconds, connections);
  } finally {
    clearInterval(sampler);
  }
  sampleRss();
  const cpuAfter = pids.map((pid) => processCpuSeconds(pid));
  const dbAfter = await server.backendCpu?.();
  const cpuSeconds =
    cpuBefore.every((v) => v !== undefined) && cpuAfter.every((v) => v !== undefined)
      ? cpuAfter.reduce((sum, after, i) => sum + after - cpuBefore[i]!, 0)
      : undefined;
  let dbSeconds: number | undefined;
  if (dbAfter && dbBefore && dbAfter.size > 0) {
    // A backend that started during the run counts from zero; one that ended during it is lost (rare: the pool keeps them).
    dbSeconds = [...dbAfter.entries()].reduce((sum, [pid, after]) => sum + after - (dbBefore.get(pid) ?? 0), 0);
  }
  const perRequest = (seconds: number | undefined) => (seconds === undefined || result.requests === 0 ? undefined : (seconds * 1e6) / result.requests);
  const figures: RunFigures = {
    requests: result.requests,
    reqPerSec: result.requests / result.seconds,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    p999Ms: result.p999Ms,
    maxMs: result.maxMs,
    non2xx: result.non2xx,
    errors: result.errors,
    peakRssMb: peakRss,
  };
  const serverCpu = perRequest(cpuSeconds);
  if (serverCpu !== undefined) figures.serverCpuUsPerRequest = serverCpu;
  const dbCpu = perRequest(dbSeconds);
  if (dbCpu !== undefined) figures.databaseCpuUsPerRequest = dbCpu;
  return figures;
}

async function preflight(baseUrl: string, scenario: Scenario): Promise<void> {
  const { spec } = scenario;
  // The last id of the range: the runs start at the first, and an order uses its pet up.
  const id = String(spec.idRange?.last ?? 1);
  const headers: Record<string, string> = {};
  if (spec.authorization) headers.authorization = spec.authorization;
  if (spec.body !== undefined) headers['content-type'] = spec.contentType ?? 'application/json';
  const response = await fetch(baseUrl + spec.path.replaceAll('{id}', id), {
    method: spec.method,
    headers,
    ...(spec.body === undefined ? {} : { body: spec.body.replaceAll('{id}', id) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== scenario.expectedStatus) {
    throw new Error(`${scenario.name}: ${spec.method} ${spec.path} answered ${response.status}, not ${scenario.expectedStatus}: ${text.slice(0, 300)}`);
  }
}

export interface Servers {
  baseline: Server;
  /** The naive Fastify peer of the database: run for the scenarios it serves. */
  peer: Server;
  service: Server;
}

export async function runScenario(database: string, scenario: Scenario, servers: Servers): Promise<ScenarioResult> {
  const { baseline, service } = servers;
  const peer = scenario.peerServes ? servers.peer : undefined;
  const loadAtStart = loadavg();
  // A scenario preparing its runs is checked after its first preparation, which comes after a
  // baseline run, when the service has long finished the previous scenario's last requests.
  if (!scenario.beforeServiceRun) await preflight(service.baseUrl, scenario);
  if (peer) await preflight(peer.baseUrl, scenario);
  const rounds: Required<ScenarioResult['rounds']> = { service: [], baseline: [], peer: [] };
  for (let round = 1; round <= SETTINGS.rounds; round++) {
    // Interleaved: a slow spell of the machine hits every side instead of one.
    rounds.baseline.push(await measureRun(baseline, scenario));
    if (peer) rounds.peer.push(await measureRun(peer, scenario));
    if (scenario.beforeServiceRun) {
      await scenario.beforeServiceRun();
      if (round === 1) await preflight(service.baseUrl, scenario);
    }
    rounds.service.push(await measureRun(service, scenario));
    const s = rounds.service.at(-1)!;
    const b = rounds.baseline.at(-1)!;
    const p = rounds.peer.at(-1);
    log(
      `  ${database} ${scenario.name} round ${round}: service ${summary(s)}; ` +
        `${p ? `peer ${summary(p)}; ` : ''}baseline ${Math.round(b.reqPerSec)} req/s, ${fmtUs(b.serverCpuUsPerRequest)} µs/req`,
    );
  }
  const service_ = medianFigures(rounds.service);
  const baseline_ = medianFigures(rounds.baseline);
  const peer_ = peer ? medianFigures(rounds.peer) : undefined;
  const problems: string[] = [];
  // 409s of placeOrder would mean the pets ran out; any status ≥ 400 or error is a failed check.
  if (service_.non2xx > 0) problems.push(`${service_.non2xx} responses ≥ 400`);
  if (service_.errors > 0) problems.push(`${service_.errors} socket errors/timeouts`);
  if (baseline_.non2xx > 0 || baseline_.errors > 0) problems.push(`baseline: ${baseline_.non2xx} ≥ 400, ${baseline_.errors} errors`);
  if (peer_ && (peer_.non2xx > 0 || peer_.errors > 0)) problems.push(`peer: ${peer_.non2xx} ≥ 400, ${peer_.errors} errors`);
  const peerRatio = peer_ ? peerCpuRatio(service_, peer_) : undefined;
  return {
    database,
    scenario: scenario.name,
    description: scenario.description,
    connections: scenario.connections,
    seconds: scenario.seconds,
    service: service_,
    baseline: baseline_,
    ...(peer_ ? { peer: peer_ } : {}),
    rounds: peer_ ? rounds : { service: rounds.service, baseline: rounds.baseline },
    ...ratios(service_, baseline_),
    ...(peerRatio === undefined ? {} : { peerCpuRatio: peerRatio }),
    loadAverage: { start: loadAtStart, end: loadavg() },
    problems,
  };
}

function summary(figures: RunFigures): string {
  return `${Math.round(figures.reqPerSec)} req/s, ${fmtUs(totalCpuUsPerRequest(figures))} µs/req, p99 ${figures.p99Ms.toFixed(2)} ms, max ${figures.maxMs.toFixed(2)} ms`;
}

function fmtUs(value: number | undefined): string {
  return value === undefined ? '–' : value.toFixed(0);
}
