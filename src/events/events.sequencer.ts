/**
 * PostgreSQL: gives committed events their feed positions. The triggers insert events without a
 * position; every instance runs this sequencer, and one at a time per store numbers the committed
 * events still without one, in one short transaction: in id order, each batch from one above the
 * largest position given (or purged) so far. It runs after each commit of its process, and the
 * write is answered once that round is done (db/commit-listeners.ts), so a client that wrote reads
 * its event in the feed at once, from any instance; and every SEQUENCE_EVERY_MS, for what a write
 * that could not wait left (a script, psql, a round that failed). Then it tells the feed's readers
 * (a commit of its own: this process's waiters, and the fleet's over Redis or the --workers relay).
 *
 * Why the feed stays exact (docs/architecture.md, "The events feed"): the sequencers of a store
 * take turns on a transaction-scoped advisory lock; PostgreSQL makes a commit visible before it
 * releases the transaction's locks, so the next sequencer sees every position the previous one
 * gave, and gives larger ones, which become visible after. So a position once readable is never
 * preceded by one that becomes readable later, and readers need only `position > cursor`. A
 * transaction left open anywhere holds back only its own events: they are not committed, so no
 * sequencer sees them. Short timeouts on the sequencer's transaction keep a stuck holder of the
 * lock (a stalled link) from holding the feed for more than about a second.
 *
 * SQLite needs none of this: a trigger sets the position as the event is inserted (one writer at a
 * time commits ids in order).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { onCommit, announceCommit } from '../db/commit-listeners.js';
import type { Database } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';

/** How often each process numbers the events of other processes' commits. */
const SEQUENCE_EVERY_MS = 100;
/** Events numbered in one transaction at most; a larger backlog takes several. */
const BATCH = 5_000;
/** The sequencer's statements and its transaction's idle time are cut here: the lock is never held longer by a stuck holder. */
const SEQUENCER_TIMEOUT_MS = 1_000;
/** How long a stop waits for a round in progress. */
const CLOSE_WAIT_MS = 1_000;

/**
 * Numbers the committed events still without a position, one batch, after any other sequencer of
 * this store running now (its lock, at most SEQUENCER_TIMEOUT_MS); answers how many it numbered.
 */
async function sequenceEvents(db: Kysely<Database>, batch = BATCH): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The lock's key: the store's schema, since several stores may share one database.
    const { rows } = await sql<{ locked: string }>`select set_config('statement_timeout', ${String(SEQUENCER_TIMEOUT_MS)}, true),
        set_config('lock_timeout', ${String(SEQUENCER_TIMEOUT_MS)}, true),
        set_config('idle_in_transaction_session_timeout', ${String(SEQUENCER_TIMEOUT_MS)}, true),
        pg_advisory_xact_lock(hashtextextended('animal-store events sequencer ' || current_schema(), 0))::text as locked`.execute(trx);
    if (rows.length !== 1) throw new Error('the sequencer\'s lock answered no row');
    const result = await sql`update events set position = base.position + waiting.n
      from (select id, row_number() over (order by id) as n from events where position is null order by id limit ${batch}) waiting,
           (select greatest((select coalesce(max(position), 0) from events), (select purged_position from events_retention where singleton = 1)) as position) base
      where events.id = waiting.id`.execute(trx);
    return Number(result.numAffectedRows ?? 0n);
  });
}

/** Numbers every committed event still without a position (PostgreSQL; nothing to do on SQLite): for scripts and tests that write without a running service. */
export async function numberWaitingEvents(db: Kysely<Database>): Promise<void> {
  if (!isPostgres(db)) return;
  while ((await sequenceEvents(db)) === BATCH);
}

/** Whether committed events wait for a position: one read of a partial index, no transaction. */
async function eventsWaiting(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ waiting: boolean }>`select exists (select 1 from events where position is null) as waiting`.execute(db);
  return rows[0]?.waiting === true;
}

export interface EventSequencer {
  /** Numbers what waits now; settles (never rejects) after a round that began after the call. */
  runNow(): Promise<void>;
  close(): Promise<void>;
}

export function startEventSequencer(db: Kysely<Database>, log: FastifyBaseLogger, everyMs = SEQUENCE_EVERY_MS): EventSequencer {
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  let failing = false;

  const round = async () => {
    try {
      do {
        again = false;
        if (!(await eventsWaiting(db))) continue;
        let numbered: number;
        do {
          numbered = await sequenceEvents(db);
          // A commit of its own: the feed's waiters look, here and in the fleet. Not awaited: this
          // round is what its own listener would wait for; it only asks for one more look.
          if (numbered > 0) void announceCommit(db);
        } while (numbered === BATCH && !closed);
      } while (again && !closed);
      failing = false;
    } catch (error) {
      // The next round tries again; said once per failing spell.
      if (!failing) log.warn({ err: error }, 'could not number new events for the feed; trying again');
      failing = true;
    } finally {
      running = undefined;
    }
  };
  const run = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    return (running = round());
  };

  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  // A write waits for the round its commit starts (or joins), so its events are numbered when it is answered.
  const stopListening = onCommit(db, run);

  return {
    runNow: run,
    async close() {
      closed = true;
      clearInterval(timer);
      stopListening();
      // A round cut short by the database closing under it is rolled back whole, and the next
      // sequencer numbers its events: waited for a bounded time only, so a silent database never holds a stop.
      await Promise.race([running, sleep(CLOSE_WAIT_MS, undefined, { ref: false })]);
    },
  };
}
