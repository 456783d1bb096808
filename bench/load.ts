/**
 * The load generators: wrk with bench/wrk/scenario.lua, or autocannon in this process when wrk is
 * missing (BENCH_LOAD). One LoadSpec describes a scenario's requests for both.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { onCleanup, ownChild } from './cleanup.js';
import { pinned, SETTINGS, USE_WRK, WRK_SCRIPT } from './settings.js';

export interface LoadSpec {
  mode: 'fixed' | 'ids' | 'mix';
  method: string;
  /** `{id}` is replaced by ids of idRange in mode `ids`. */
  path: string;
  body?: string;
  contentType?: string;
  authorization?: string;
  idRange?: { first: number; last: number };
  /** The ids of the warm-up, when a request uses its id up (an order takes its pet); idRange otherwise. */
  warmupIdRange?: { first: number; last: number };
  /** Mode `mix`: one request in `every` is this write; the others GET `path`. */
  write?: { method: string; path: string; body: string; every: number };
}

export interface LoadResult {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** The slowest answer of the run. */
  maxMs: number;
  non2xx: number;
  errors: number;
}

function wrk(baseUrl: string, spec: LoadSpec, seconds: number, connections: number): Promise<LoadResult> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_MODE: spec.mode,
    BENCH_METHOD: spec.method,
    BENCH_PATH: spec.path,
    BENCH_BODY: spec.body ?? '',
    BENCH_CONTENT_TYPE: spec.contentType ?? 'application/json',
    BENCH_AUTHORIZATION: spec.authorization ?? '',
    BENCH_ID_FIRST: String(spec.idRange?.first ?? 1),
    BENCH_ID_LAST: String(spec.idRange?.last ?? 1),
    BENCH_THREADS: String(SETTINGS.wrkThreads),
    BENCH_WRITE_METHOD: spec.write?.method ?? '',
    BENCH_WRITE_PATH: spec.write?.path ?? '',
    BENCH_WRITE_BODY: spec.write?.body ?? '',
    BENCH_WRITE_EVERY: String(spec.write?.every ?? 20),
  };
  const [command, ...args] = [
    ...pinned(SETTINGS.clientCpus),
    'wrk',
    `-t${SETTINGS.wrkThreads}`,
    `-c${Math.max(connections, SETTINGS.wrkThreads)}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    WRK_SCRIPT,
    baseUrl,
  ];
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const owned = ownChild(child, 'wrk');
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return owned.exited.then(async (code) => {
    await owned.stop();
    const line = stdout.split('\n').find((text) => text.startsWith('BENCH_JSON '));
    if (code !== 0 || !line) throw new Error(`wrk exited with code ${code} without its figures:\n${stdout}\n${stderr}`);
    const figures = JSON.parse(line.slice('BENCH_JSON '.length)) as Record<string, number>;
    return {
      requests: figures.requests!,
      seconds: figures.durationUs! / 1e6,
      p50Ms: figures.p50Us! / 1000,
      p99Ms: figures.p99Us! / 1000,
      p999Ms: figures.p999Us! / 1000,
      maxMs: figures.maxUs! / 1000,
      non2xx: figures.non2xx!,
      errors: figures.connectErrors! + figures.readErrors! + figures.writeErrors! + figures.timeouts!,
    };
  });
}

function cannon(baseUrl: string, spec: LoadSpec, seconds: number, connections: number): Promise<LoadResult> {
  const headers: Record<string, string> = {};
  if (spec.authorization) headers.authorization = spec.authorization;
  if (spec.body !== undefined || spec.write) headers['content-type'] = spec.contentType ?? 'application/json';
  let next = 0;
  const nextId = () => {
    const { first, last } = spec.idRange ?? { first: 1, last: 1 };
    return String(first + (next++ % (last - first + 1)));
  };
  const request: autocannon.Request = {
    method: spec.method as autocannon.Request['method'],
    path: spec.path,
    headers,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    setupRequest: (req) => {
      if (spec.mode === 'ids') {
        const id = nextId();
        return { ...req, path: spec.path.replaceAll('{id}', id), ...(spec.body === undefined ? {} : { body: spec.body.replaceAll('{id}', id) }) };
      }
      if (spec.mode === 'mix' && spec.write && ++next % spec.write.every === 0) {
        return { ...req, method: spec.write.method as autocannon.Request['method'], path: spec.write.path, body: spec.write.body };
      }
      return req;
    },
  };
  return new Promise((done, fail) => {
    const running: { instance?: autocannon.Instance } = {};
    const release = onCleanup('stop autocannon', async () => running.instance?.stop());
    running.instance = autocannon(
      { url: baseUrl, connections, pipelining: 1, duration: seconds, timeout: 10, requests: [request] },
      (error: unknown, result: autocannon.Result) => {
        void release();
        if (error) return fail(error instanceof Error ? error : new Error(JSON.stringify(error) ?? 'autocannon failed'));
        done({
          requests: result['2xx'] + result.non2xx,
          seconds: result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          p999Ms: result.latency.p99_9,
          maxMs: result.latency.max,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      },
    );
  });
}

/** `connections` clients, each sending its next request when the previous answer arrived. */
export const load = (baseUrl: string, spec: LoadSpec, seconds: number, connections: number) => (USE_WRK ? wrk : cannon)(baseUrl, spec, seconds, connections);
