/** A fresh app on a fresh database, driven through inject(): the default component test. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type AppDeps, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DialectName } from '../../src/db/database-url.js';
import type { Database } from '../../src/db/database.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  /** A valid key's Authorization header. */
  auth: { authorization: string };
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  /** Waits for a log line (already written or still to come) that the predicate accepts. */
  waitForLog(predicate: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Moves the app's clock. */
  clock: { now: number };
  close(): Promise<void>;
}

/** A log stream that keeps the app's lines, parsed, and tells when an awaited one comes. */
export function logCollector(): Pick<TestApp, 'logs' | 'waitForLog'> & { logStream: Writable } {
  const logs: Record<string, unknown>[] = [];
  const waiters = new Set<{ predicate: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }>();
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) {
        const line = JSON.parse(text) as Record<string, unknown>;
        logs.push(line);
        for (const waiter of waiters) {
          if (!waiter.predicate(line)) continue;
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
      done();
    },
  });
  const waitForLog = (predicate: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const seen = logs.find(predicate);
      if (seen) resolve(seen);
      else waiters.add({ predicate, resolve });
    });
  return { logs, logStream, waitForLog };
}

export async function createTestApp(
  dialect: DialectName,
  options: {
    env?: Record<string, string>;
    now?: number;
    /** Wraps the connection the app uses (to count its queries, say); the test's own stays unwrapped. */
    wrapDb?: (db: Kysely<Database>) => Kysely<Database>;
    /** Test hooks of the app (such as onIdempotencyKeyReserved). */
    hooks?: Pick<
      AppDeps,
      | 'onIdempotencyKeyReserved'
      | 'eventPurgeSchedule'
      | 'eventKeepAliveMs'
      | 'eventStallMs'
      | 'eventRecheckMs'
      | 'webhookLookup'
      | 'webhookUrlDns'
      | 'webhookDispatcher'
      | 'consoleFolder'
    >;
    /** A database made by the test (createScratchDatabase, say) instead of a fresh one; dropped by close(). */
    database?: TestDatabase;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(dialect));
  const config = loadConfig({ LOG_LEVEL: 'info', ...options.env });
  const clock = { now: options.now ?? Date.now() };
  const { logs, logStream, waitForLog } = logCollector();
  const app = await buildApp({
    db: options.wrapDb ? options.wrapDb(database.db) : database.db,
    database,
    config,
    now: () => clock.now,
    logStream,
    ...options.hooks,
  });
  await app.ready();
  const issued = await issueApiKey(database.db, { name: 'test' }, () => clock.now);
  return {
    app,
    database,
    auth: { authorization: `Bearer ${issued.key}` },
    logs,
    waitForLog,
    clock,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
