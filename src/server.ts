/**
 * Boots the service: database, migrations, first key, the app, and a graceful stop on
 * SIGTERM/SIGINT (stop accepting, finish requests in flight, close the database, exit 0).
 * With `--workers N` the primary process prepares the database once, then supervises N
 * worker processes (node:cluster) that share the listening port.
 */
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { basename, relative } from 'node:path';
import { pino } from 'pino';
import type { Config } from './config.js';
import { buildApp } from './app.js';
import { createDb, operationBudgetMs, withDb } from './db/create-db.js';
import { locationOf } from './db/database-url.js';
import { stopListening } from './http/connection-drain.js';
import { relayLogLines, stdoutLogDestination, workersNeedLogRelay } from './log-destination.js';
import { migrateStore } from './db/migrate.js';
import { holdStoreShared } from './db/postgres/store-lock.js';
import { relayFeedChanges } from './events/events.fleet-channel.js';
import { hasAnyKey, issueApiKey } from './keys/keys.service.js';
import { gatherWorkerMetrics, offerWorkerMetrics } from './metrics/cluster-metrics.js';
import { createMetrics } from './metrics/metrics.js';
import { buildMetricsServer, listenForScrapes } from './metrics/metrics-server.js';

export interface ServeOptions {
  /** Make and print a key when the key store is empty, so a new user can call the API at once. */
  bootstrapKey: boolean;
  /** Worker processes; 1 serves from this process. */
  workers: number;
}

/** Prepares the database for serving: the migrations, run once before any process serves. */
async function prepareDatabase(config: Config): Promise<void> {
  await migrateStore(config.databaseUrl, config.databaseStatementTimeoutMs);
}

/**
 * Makes the first key when the key store is empty, once the service listens: made earlier, a
 * key would be lost with a start that fails (a busy port, say), and no later start would show one.
 */
async function makeBootstrapKey(config: Config, baseUrl: string): Promise<void> {
  await withDb(config.databaseUrl, config.databaseStatementTimeoutMs, async (db) => {
    if (await hasAnyKey(db)) return;
    printBootstrapKey((await issueApiKey(db, { name: 'bootstrap' })).key, baseUrl, locationOf(config.databaseUrl));
  });
}

/** Serves HTTP until a stop signal, and answers the base URL it listens on; assumes `prepareDatabase` ran. */
async function serveHttp(config: Config): Promise<string> {
  const handle = createDb(config.databaseUrl, { poolMax: config.databasePoolMax, statementTimeoutMs: config.databaseStatementTimeoutMs });
  let warn = (_message: string, _error?: unknown): void => {};
  let replaced = (_error: Error): void => {};
  // Before the app reads the store (its cursor key): an import refuses a store in use (db/postgres/store-lock.ts).
  const storeLock =
    handle.dialect === 'postgres'
      ? await holdStoreShared(config.databaseUrl, {
          connectMs: operationBudgetMs(config.databaseStatementTimeoutMs),
          warn: (message, error) => warn(message, error),
          replaced: (error) => replaced(error),
        })
      : undefined;
  // Metrics: a worker's /metrics answers the sum its primary gathers (cluster-metrics.ts).
  const metrics = createMetrics({ dialect: handle.dialect, poolStats: handle.poolStats });
  const renderMetrics = cluster.isWorker ? offerWorkerMetrics(metrics) : metrics.render;
  const app = await buildApp({ db: handle.db, database: handle, config, metrics, renderMetrics });
  app.log.info({ database: handle.location }, 'database opened');
  warn = (message, error) => app.log.warn({ err: error }, message);
  // Under --workers the primary serves METRICS_PORT; workers never listen there.
  const metricsServer =
    config.metricsPort !== undefined && !cluster.isWorker
      ? await buildMetricsServer({ render: metrics.render, token: config.metricsToken, logger: app.log })
      : undefined;

  let stopping = false;
  const stop = async (signal: NodeJS.Signals | undefined, code = 0) => {
    if (stopping) return;
    stopping = true;
    if (signal) app.log.info({ signal }, 'stopping: finishing requests in flight');
    // A request that never ends must not keep the process alive past the shutdown timeout.
    const force = setTimeout(() => {
      app.log.error('requests still running after SHUTDOWN_TIMEOUT_MS; exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      stopListening(app.server);
      await metricsServer?.close();
      await app.close();
      await handle.close();
      await storeLock?.release();
      app.log.info('stopped');
      process.exit(code);
    } catch (error) {
      app.log.error({ err: error }, 'stop failed');
      process.exit(1);
    }
  };
  // Serving on after an import replaced the store would answer from stale caches: stop, exit 1.
  replaced = (error) => {
    app.log.error({ err: error }, 'an import took this store while its lock was lost: stopping; start again once the import has ended');
    void stop(undefined, 1);
  };
  // Fire and forget: stop catches its own failures, logs them and exits.
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));

  await app.listen({ port: config.port, host: config.host });
  // Every connection opened and kept (db/postgres/pool.ts fillPool), beside the first requests: a server that does not
  // answer holds neither the start nor a stop.
  void handle
    .fillPool?.()
    .then((failure) => {
      if (failure && !stopping) {
        app.log.warn(
          { err: failure },
          'could not open every connection of the pool (DATABASE_POOL_MAX): none is kept open when idle; connections open and close as requests need them',
        );
      }
    })
    .catch((error: unknown) => app.log.warn({ err: error }, 'could not fill the pool of connections'));
  if (metricsServer) await listenForScrapes(metricsServer, config.metricsPort!, config.host);
  return baseUrlOf(config.host, (app.server.address() as AddressInfo | null)?.port ?? config.port);
}

export async function serve(config: Config, options: ServeOptions): Promise<void> {
  if (cluster.isWorker) {
    await serveHttp(config);
    return;
  }
  await prepareDatabase(config);
  if (options.workers > 1) {
    if (options.bootstrapKey) {
      cluster.once('listening', (_worker, address) => void makeBootstrapKey(config, baseUrlOf(config.host, address.port)));
    }
    return superviseWorkers(config, options.workers);
  }
  const baseUrl = await serveHttp(config);
  if (options.bootstrapKey) await makeBootstrapKey(config, baseUrl);
}

/** A worker that dies within this long of starting is failing at boot; restarting it would only loop. */
const MIN_WORKER_LIFETIME_MS = 5000;

/**
 * The primary of `--workers N`: forks the workers, replaces one that dies unexpectedly, and on
 * SIGTERM/SIGINT passes the signal on and exits 0 once every worker has stopped cleanly.
 */
function superviseWorkers(config: Config, count: number): Promise<void> {
  const log = pino({ level: config.logLevel }, stdoutLogDestination()).child({ role: 'primary' });
  const startedAt = new Map<Worker, number>();
  // Workers that have listened: one still starting when a stop comes holds no request, so it
  // ending then (killed by the signal before its own handler was installed) is not a failure.
  const listened = new WeakSet<Worker>();
  cluster.on('listening', (worker) => listened.add(worker));
  let stopping = false;
  let failed = false;

  // Installed before any worker exists, so a stop signal never finds the default (kill) in place.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping workers');
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Metrics: the primary sums the workers' metrics (cluster-metrics.ts), and serves METRICS_PORT itself.
  const renderMetrics = gatherWorkerMetrics();
  const metricsServer = config.metricsPort === undefined ? undefined : buildMetricsServer({ render: renderMetrics, token: config.metricsToken, logger: log });
  void metricsServer
    ?.then((server) => listenForScrapes(server, config.metricsPort!, config.host))
    .catch((error: unknown) => {
      log.fatal({ err: error }, 'cannot serve the metrics on METRICS_PORT; stopping the workers');
      failed = true;
      stop('SIGTERM');
    });

  // A socket as standard output: the workers get their own, relayed (log-destination.ts).
  const relay = workersNeedLogRelay();
  if (relay.stdout) cluster.setupPrimary({ stdio: ['inherit', 'pipe', relay.stderr ? 'pipe' : 'inherit', 'ipc'] });
  const fork = () => {
    const worker = cluster.fork();
    if (worker.process.stdout) relayLogLines(worker.process.stdout);
    if (worker.process.stderr) relayLogLines(worker.process.stderr);
    startedAt.set(worker, Date.now());
  };
  // A commit in one worker wakes the feed's waiting readers of the others at once (events.fleet-channel.ts).
  relayFeedChanges();
  for (let i = 0; i < count; i++) fork();
  log.info({ workers: count }, 'workers started');

  // The worker's pid goes under workerPid: the logger already writes the primary's own as `pid`.
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (code !== 0 && listened.has(worker)) failed = true;
      if (startedAt.size === 0) {
        log.info('all workers stopped');
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    if (lived < MIN_WORKER_LIFETIME_MS) {
      log.fatal({ workerPid: worker.process.pid, code, signal }, 'a worker died while starting; stopping the others');
      stopping = true;
      failed = true;
      for (const other of startedAt.keys()) other.process.kill('SIGTERM');
      if (startedAt.size === 0) process.exit(1);
      return;
    }
    log.error({ workerPid: worker.process.pid, code, signal }, 'a worker died; starting another');
    fork();
  });

  return new Promise(() => {});
}

function baseUrlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/v1`;
}

function printBootstrapKey(key: string, base: string, database: string): void {
  // Plain text, not a log line, so log shippers that parse the JSON lines skip it. Where stdout
  // itself is stored (containers, service managers), start with --no-bootstrap-key instead.
  process.stdout.write(
    [
      '',
      'The key store was empty, so this API key was made (name "bootstrap"). It is shown only now:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${key}" ${base}/pets`,
      '',
      `Manage keys with: ${commandName()} keys create --name NAME | keys list | keys revoke ID`,
      // Unset, DATABASE_URL is a path relative to the current folder: another shell elsewhere
      // would quietly open (and create) another database, where this key does not exist.
      `The command must see the same DATABASE_URL as this service (${database}), or it works on another database.`,
      '',
    ].join('\n') + '\n',
  );
}

/** How the user invoked this command, for hints: `node dist/cli.js` from a clone, else `animal-store`. */
function commandName(): string {
  const script = process.argv[1] ?? '';
  return basename(script) === 'cli.js' ? `node ${relative(process.cwd(), script) || script}` : 'animal-store';
}
