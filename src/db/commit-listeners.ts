/**
 * "Data was committed" for the readers that wait on it (the events feed's long polls and streams,
 * events/events.wakeup.ts). Told by the two places every write of the service passes through,
 * `writeTransaction` and `singleWrite` (dialect.ts), once the commit has returned: one hook for
 * every write, today's and tomorrow's, rather than one call per service function that someone
 * must remember. It says only that something was committed, never what: a listener decides what
 * to read. Listeners run synchronously after the commit and must be cheap (schedule, don't query).
 * Never a database notification (PostgreSQL NOTIFY inside a write serialises the commits of every
 * notifying transaction).
 */
import type { Kysely } from 'kysely';

type CommitListener = () => void;

/** By the database's adapter, which every Kysely instance made from one handle shares (`withPlugin` included). */
const listenersByDatabase = new WeakMap<object, Set<CommitListener>>();

/** Calls `listener` after each commit of a write made through this database; answers how to stop. */
export function onCommit(db: Kysely<any>, listener: CommitListener): () => void {
  const key = db.getExecutor().adapter;
  let listeners = listenersByDatabase.get(key);
  if (!listeners) listenersByDatabase.set(key, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners that a write through `db` committed; nothing inside a transaction (it has not committed yet). */
export function announceCommit(db: Kysely<any>): void {
  if (db.isTransaction) return;
  const listeners = listenersByDatabase.get(db.getExecutor().adapter);
  if (listeners) for (const listener of listeners) listener();
}
