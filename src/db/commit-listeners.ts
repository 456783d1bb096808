/**
 * "Data was committed", for what must follow a commit: the events feed's readers that wait for
 * changes (events/events.wakeup.ts), and on PostgreSQL the sequencer that gives the committed
 * events their feed positions (events/events.sequencer.ts). Told by the two places every write of
 * the service passes through, `writeTransaction` and `singleWrite` (dialect.ts), once the commit
 * has returned: one hook for every write, today's and tomorrow's, rather than one call per service
 * function that someone must remember. It says only that something was committed, never what.
 *
 * A write that records events (`recordsEvents`: it changed pets or orders) is answered once the
 * promises its listeners answer have settled: the sequencer's, so that its events are in the feed
 * by then (read your writes). Other writes wait for no listener. Such a promise must never reject
 * and must end within a bounded time; a listener must be cheap otherwise (schedule, don't query).
 * Never a database notification (PostgreSQL NOTIFY inside a write serialises the commits of every
 * notifying transaction).
 */
import type { Kysely } from 'kysely';
import { engineOf } from './engine.js';

/** What a commit did, as far as its listeners care. */
export interface Commit {
  /** It changed pets or orders, whose triggers recorded events. */
  recordsEvents: boolean;
}

type CommitListener = (commit: Commit) => void | Promise<void>;

/** The listeners of one database (its engine's `commits`). */
export class CommitListeners {
  readonly #listeners = new Set<CommitListener>();

  /** Calls `listener` after each commit; answers how to stop. */
  add(listener: CommitListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; answers a promise when a listener did, to be awaited before the write is answered. */
  announce(commit: Commit): Promise<unknown> | undefined {
    let pending: Promise<void>[] | undefined;
    for (const listener of this.#listeners) {
      // The write has committed: a listener failing must not make it answer an error (its client
      // would write it again) nor keep the other listeners from hearing it.
      try {
        const done = listener(commit);
        if (done) (pending ??= []).push(done);
      } catch (error) {
        process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'CommitListenerWarning');
      }
    }
    return pending && Promise.all(pending);
  }
}

/** Calls `listener` after each commit of a write made through this database; answers how to stop. */
export function onCommit(db: Kysely<any>, listener: CommitListener): () => void {
  const engine = engineOf(db);
  if (!engine) throw new Error('onCommit needs a database made by createDb');
  return engine.commits.add(listener);
}

/**
 * Tells the listeners that a write through `db` committed; nothing inside a transaction (it has not
 * committed yet). Answers a promise when a listener did, to be awaited before the write is answered.
 */
export function announceCommit(db: Kysely<any>, commit: Commit): Promise<unknown> | undefined {
  if (db.isTransaction) return undefined;
  return engineOf(db)?.commits.announce(commit);
}
