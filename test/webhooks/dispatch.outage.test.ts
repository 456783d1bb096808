/**
 * The dispatcher when PostgreSQL is away, through the tests' TCP proxy: failed rounds back off
 * (twice as long each time, logged once per step) and recover by themselves; a database gone
 * silent does not hold the app's close (the leases expire on their own). PostgreSQL only: the
 * proxy stands between the service and a network database (SQLite is a file in the process).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startDatabaseProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { logCollector } from '../helpers/test-app.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../helpers/test-db.js';
import { withDeadline } from '../helpers/wait-for.js';

const POLL_MS = 20;
const ROUND_FAILED = 'a webhook dispatch round failed; the next one tries again';

describeOnPostgres('webhook dispatcher during a PostgreSQL outage', { timeout: 60_000 }, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let proxy: TcpProxy & { url: string };
  let handle: DbHandle;

  before(async () => {
    place = await createEmptyDatabaseUrl('postgres');
    proxy = await startDatabaseProxy(place.url);
    // A statement timeout far beyond the test: a silent network holds a query for good.
    handle = createDb(proxy.url, { poolMax: 4, statementTimeoutMs: 600_000 });
    await migrateToLatest(handle.db);
  });
  after(async () => {
    await proxy?.restore();
    await handle?.close();
    await proxy?.close();
    await place?.remove();
  });

  const startApp = async (roundStarted?: () => void) => {
    const logs = logCollector();
    const app: FastifyInstance = await buildApp({
      db: handle.db,
      config: loadConfig({ LOG_LEVEL: 'info' }),
      logStream: logs.logStream,
      webhookDispatcher: { pollMs: POLL_MS, closeWaitMs: 200, roundStarted: () => roundStarted?.() },
    });
    await app.ready();
    return { app, ...logs };
  };

  it('Attack: the database refuses connections > failed rounds back off twice as long each time, one warning each, and recover', async () => {
    const { app, logs, waitForLog } = await startApp();
    try {
      await proxy.cut();
      await withDeadline(
        waitForLog(() => logs.filter((line) => line.msg === ROUND_FAILED).length >= 4),
        15_000,
        'four failed rounds',
      );
      const failed = logs.filter((line) => line.msg === ROUND_FAILED).slice(0, 4);
      assert.deepEqual(
        failed.map((line) => [line.failedRounds, line.retryInMs]),
        [1, 2, 3, 4].map((n) => [n, POLL_MS * 2 ** n]),
      );
      await proxy.restore();
      await withDeadline(
        waitForLog((line) => line.msg === 'webhook dispatch rounds succeed again'),
        15_000,
        'the rounds to succeed again',
      );
    } finally {
      await proxy.restore();
      await app.close();
    }
  });

  it('Attack: the database goes silent mid-round > the app still closes (the dispatcher waits a bounded time)', async () => {
    let atRoundStart: (() => void) | undefined;
    const { app, waitForLog } = await startApp(() => atRoundStart?.());
    // The network goes silent as a round starts: its first query is held, and the round is stuck in
    // it. (Stalled at any other moment, the dispatcher could be between two rounds when closed.)
    await withDeadline(
      new Promise<void>((resolve) => {
        atRoundStart = () => {
          atRoundStart = undefined;
          proxy.stall();
          resolve();
        };
      }),
      15_000,
      'a dispatch round to start',
    );
    await withDeadline(app.close(), 15_000, 'the app to close with the database silent');
    await withDeadline(
      waitForLog((line) => String(line.msg).startsWith('the webhook dispatcher stopped without giving its deliveries back')),
      1000,
      'the warning',
    );
    // The held query never reached the database: cut, its connection fails, and the pool can close.
    await proxy.cut();
    await proxy.restore();
  });
});
