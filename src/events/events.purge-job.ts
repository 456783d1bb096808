/**
 * The events' purge, run off the request path in every process, as the idempotency keys' is:
 * every minute, the events older than EVENT_RETENTION_DAYS by the database's clock (the one their
 * `occurredAt` was written with) are purged in short batches (events.retention.ts). Never two runs
 * at once in a process, never awaited by a request; several instances purging at once take turns
 * batch by batch. A failed run is logged and the next one tries again. Closing the app stops the
 * timer and ends a run in progress after its current batch, and waits for it, so the database is
 * never closed under it.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { databaseNowMs } from '../db/dialect.js';
import { purgeEventsBefore } from './events.retention.js';

/** How often each process purges. */
const PURGE_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

/** What runs the purge now and then: a timer, or a test's hand. */
export interface PurgeSchedule {
  every(intervalMs: number, run: () => Promise<void>): { stop(): void };
}

const timerSchedule: PurgeSchedule = {
  every(intervalMs, run) {
    const timer = setInterval(() => void run(), intervalMs);
    // The purge alone never keeps a process alive.
    timer.unref();
    return { stop: () => clearInterval(timer) };
  },
};

export interface EventPurgeOptions {
  db: Kysely<Database>;
  retentionDays: number;
  /** Tests only: runs the purge when the test says, instead of every minute. */
  schedule?: PurgeSchedule | undefined;
}

export function registerEventPurge(app: FastifyInstance, options: EventPurgeOptions): void {
  const { db, retentionDays } = options;
  let running: Promise<void> | undefined;
  let closing = false;
  let scheduled: { stop(): void } | undefined;

  const purge = async () => {
    try {
      const cutoff = (await databaseNowMs(db)) - retentionDays * DAY_MS;
      await purgeEventsBefore(db, cutoff, { stopping: () => closing });
    } catch (error) {
      app.log.warn({ err: error }, 'purging old events failed; next try in a minute');
    } finally {
      running = undefined;
    }
  };
  // A run still going when the next is due is left to finish: the next one is skipped.
  const run = (): Promise<void> => {
    if (closing) return Promise.resolve();
    return (running ??= purge());
  };

  app.addHook('onReady', async () => {
    scheduled = (options.schedule ?? timerSchedule).every(PURGE_INTERVAL_MS, run);
  });
  app.addHook('onClose', async () => {
    closing = true;
    scheduled?.stop();
    await running;
  });
}
