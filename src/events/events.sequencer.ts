/**
 * PostgreSQL: gives committed events their feed positions. The triggers insert events without a
 * position; every instance runs this sequencer, and one at a time per store numbers the committed
 * events still without one, in one short transaction: in id order, each batch from one above the
 * largest position given (or purged) so far. It runs after each commit of its process that
 * recorded events, and that write is answered once the round is done (db/commit-listeners.ts; at
 * most WRITE_WAIT_MS), so a client that wrote reads its event in the feed at once, from any
 * instance; and every SEQUENCE_EVERY_MS, for what other writers left (other instances' rounds that
 * failed, a script, psql), when one read of a partial index finds a committed event without a
 * position (an idle store costs one statement a tick, not a transaction of four). Then it tells the
 * feed's readers (a commit of its own: this process's waiters, and the fleet's over Redis or the
 * --workers relay).
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

/**
 * The sequencers' lock, one per store: keyed on the events table itself (its oid), since several
 * stores may share a database, one schema each, and the instances of a store all write to that
 * table whatever else their search_path holds. Exported for tests that hold it.
 */
export const SEQUENCER_LOCK_KEY = "hashtextextended('animal-store events sequencer ' || 'events'::regclass::oid, 0)";

/** How often each process looks for events other processes' commits left without a position. */
export const SEQUENCE_EVERY_MS = 100;
/** Events numbered in one transaction at most; a larger backlog takes several. */
const BATCH = 5_000;
/** The wait for the lock and the transaction's idle time are cut here: a stuck holder stalls the feed about this long at most. */
const SEQUENCER_TIMEOUT_MS = 1_000;
/** Settles when `round` does or after WRITE_WAIT_MS, whichever is first; the timer goes with the round (one per write would pile up under load). */
function roundOrTimeout(round: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, WRITE_WAIT_MS);
    timer.unref();
    void round.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** How long a stop waits for a round in progress. */
const CLOSE_WAIT_MS = 1_000;
/** The longest a write that recorded events waits for them to be numbered before it is answered anyway. */
export const WRITE_WAIT_MS = 1_500;

/**
 * Numbers the committed events still without a position, one batch, after any other sequencer of
 * this store running now (its lock, at most SEQUENCER_TIMEOUT_MS); answers how many it numbered.
 */
async function sequenceEvents(db: Kysely<Database>, batch = BATCH): Promise<number> {
  // READ COMMITTED whatever the database's default: each statement sees what the previous holder of the lock committed.
  return db
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx) => {
      // The numbering statement keeps the connections' statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS), within
      // the driver's budget: longer than the lock's, since its scan of the events without a position grows while
      // a snapshot held open elsewhere (a long pg_dump) keeps numbered rows' old index entries from being cleaned up.
      const { rows } = await sql<{ locked: string }>`select set_config('lock_timeout', ${String(SEQUENCER_TIMEOUT_MS)}, true),
        set_config('idle_in_transaction_session_timeout', ${String(SEQUENCER_TIMEOUT_MS)}, true),
        pg_advisory_xact_lock(${sql.raw(SEQUENCER_LOCK_KEY)})::text as locked`.execute(trx);
      if (rows.length !== 1) throw new Error("the sequencer's lock answered no row");
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

/**
 * Whether a committed event waits for its position: one statement outside any transaction, on the
 * partial index events_unpositioned_idx. Only the timer asks it. A "no" that a commit makes wrong
 * a moment later costs nothing: that commit's own round, or the next tick, numbers it.
 */
async function eventsWaiting(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ waiting: boolean }>`select exists (select 1 from events where position is null) as waiting`.execute(db);
  return rows[0]?.waiting === true;
}

export interface EventSequencer {
  /** Numbers what waits now; settles (never rejects) after a round that began after the call. */
  runNow(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Rounds of one batch each, never two at once in a process. A caller waits for the round that
 * starts after its call (the one running may have read before its commit), and no longer: a backlog
 * beyond one batch, or a commit arriving while it waits, is left to the rounds that follow.
 */
export function startEventSequencer(db: Kysely<Database>, log: FastifyBaseLogger, everyMs = SEQUENCE_EVERY_MS): EventSequencer {
  let running: Promise<void> | undefined;
  /** The callers waiting for the next round to start, and how to tell them it ended. */
  let next: { done: Promise<void>; end: () => void } | undefined;
  let closed = false;
  let failing = false;

  const round = async (): Promise<void> => {
    try {
      const numbered = await sequenceEvents(db);
      failing = false;
      // A commit of its own: the feed's waiters look, here and in the fleet.
      if (numbered > 0) void announceCommit(db, { recordsEvents: false });
      // More than a batch waited: the next round follows at once.
      if (numbered === BATCH) void request();
    } catch (error) {
      // The next round tries again; said once per failing spell.
      if (!failing) log.warn({ err: error }, 'could not number new events for the feed; trying again');
      failing = true;
    }
  };
  const start = () => {
    const waiting = next;
    next = undefined;
    running = round().finally(() => {
      running = undefined;
      waiting?.end();
      if (next && !closed) start();
    });
  };
  function request(): Promise<void> {
    if (closed) return Promise.resolve();
    if (!next) {
      let end!: () => void;
      const done = new Promise<void>((resolve) => (end = resolve));
      next = { done, end };
    }
    const { done } = next;
    if (!running) start();
    return done;
  }

  let probing = false;
  /**
   * The timer's look for what other writers left. Nothing to ask while a round runs: it, or the
   * tick after it, sees what is left. A probe that fails asks for a round anyway, whose own failure
   * is what gets logged.
   */
  const tick = async (): Promise<void> => {
    if (closed || probing || running) return;
    probing = true;
    try {
      if (!(await eventsWaiting(db).catch(() => true))) return;
    } finally {
      probing = false;
    }
    void request();
  };

  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  // A write that records events waits for the round its commit starts, at most WRITE_WAIT_MS.
  const stopListening = onCommit(db, (commit) => (commit.recordsEvents ? roundOrTimeout(request()) : undefined));

  return {
    runNow: request,
    async close() {
      closed = true;
      clearInterval(timer);
      stopListening();
      next?.end();
      // A round cut short by the database closing under it is rolled back whole, and the next
      // sequencer numbers its events: waited for a bounded time only, so a silent database never holds a stop.
      await Promise.race([running, sleep(CLOSE_WAIT_MS, undefined, { ref: false })]);
    },
  };
}
