/**
 * Group commit for SQLite: the write transactions that arrive together share one transaction
 * and one sync of the file. With `synchronous = FULL` every commit waits for the disk (about
 * 0.75 ms here, during which better-sqlite3 holds the event loop), so one commit per create
 * capped creates near 1,300 per second; a group of 50 pays that once (docs/performance.md).
 *
 * Each member runs in its own savepoint, in arrival order: a member that fails (a 409, a 404, a
 * constraint) is rolled back alone and gets its own error, the others are kept. No member is
 * answered before the group's COMMIT has returned, so what a member's caller is told was stored
 * is on disk. If the commit itself fails, every member gets that error and nothing is stored.
 *
 * SQLite may also roll back the whole transaction by itself when a member's statement fails
 * (SQLITE_FULL without a statement journal, SQLITE_IOERR): the savepoint is gone with it, so the
 * member cannot be undone alone. Then that member gets its own error, and every other member of
 * the group, those that ran and were undone and those that never ran, gets GroupRolledBack: no
 * misleading "no such savepoint", and the cause is told once, by the member that met it.
 *
 * A group is what arrived by the next turn of the event loop, or while the group before it was
 * committing; at most MAX_GROUP members, so the write lock is never held for long.
 */
import { channel } from 'node:diagnostics_channel';
import { type Kysely, sql } from 'kysely';
import { errorCodeOf } from '../error-code.js';
import { isSqliteBusy } from './lock-wait.js';

const MAX_GROUP = 256;

/**
 * Told `{ waiting }` each time a write joins a group, for tracing and for tests that must know
 * a write is queued (it may be waiting for another process's lock). Free when nobody listens.
 */
export const writeJoined = channel('animal-store:group-commit:joined');

export interface GroupCommit {
  /** Runs `work` in the next group's transaction; settles once that transaction has committed. */
  run<T>(work: (trx: Kysely<any>) => Promise<T>): Promise<T>;
}

interface Member {
  work: (trx: Kysely<any>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The group commit of a SQLite database, held by its engine (engine.ts). */
export function createGroupCommit(db: Kysely<any>): GroupCommit {
  let waiting: Member[] = [];
  let scheduled = false;

  const commitGroup = async (group: Member[]): Promise<void> => {
    const outcomes: Outcome[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const [index, member] of group.entries()) outcomes.push(await runMember(trx, member, index, group.length > 1));
      });
    } catch (error) {
      // Nothing of this group is stored; a member that failed on its own keeps its own error.
      if (error instanceof TransactionLost) {
        group.forEach((member, i) => {
          const outcome = outcomes[i];
          if (i === error.index) member.reject(error.original);
          else member.reject(outcome?.ok === false ? outcome.error : new GroupRolledBack(error.original));
        });
        return;
      }
      const failure = error instanceof MemberFailed ? error.original : error;
      // The write lock stayed taken by another process for the whole lock wait: the writes queued
      // behind this group would each wait that long again, one group after another, for the same
      // lock. They fail now, with the same error (503), instead of after k waits.
      if (isSqliteBusy(failure)) {
        const queued = waiting;
        waiting = [];
        queued.forEach((member) => member.reject(failure));
      }
      group.forEach((member, i) => {
        const outcome = outcomes[i];
        member.reject(outcome?.ok === false ? outcome.error : failure);
      });
      return;
    }
    group.forEach((member, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) member.resolve(outcome.value);
      else member.reject(outcome.error);
    });
  };

  const commitWaiting = async (): Promise<void> => {
    while (waiting.length > 0) {
      const group = waiting.slice(0, MAX_GROUP);
      waiting = waiting.slice(group.length);
      await commitGroup(group);
    }
    scheduled = false;
  };

  return {
    run<T>(work: (trx: Kysely<any>) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (writeJoined.hasSubscribers) writeJoined.publish({ waiting: waiting.length });
        if (!scheduled) {
          scheduled = true;
          // The writes that arrive in this turn of the event loop join this group.
          setImmediate(() => void commitWaiting());
        }
      });
    },
  };
}

/** One member in its own savepoint (none needed when it is alone: the transaction is its own). */
async function runMember(trx: Kysely<any>, member: Member, index: number, inSavepoint: boolean): Promise<Outcome> {
  if (!inSavepoint) {
    try {
      return { ok: true, value: await member.work(trx) };
    } catch (error) {
      // Alone in the group: failing it fails the transaction, which stores nothing.
      throw new MemberFailed(error);
    }
  }
  await sql`savepoint group_member`.execute(trx);
  try {
    const value = await member.work(trx);
    await sql`release group_member`.execute(trx);
    return { ok: true, value };
  } catch (error) {
    try {
      await sql`rollback to group_member`.execute(trx);
      await sql`release group_member`.execute(trx);
    } catch {
      // The savepoint is gone: SQLite rolled back the whole transaction by itself (or cannot undo
      // this member alone). The member's own error says why; this one ("no such savepoint") does not.
      throw new TransactionLost(index, error);
    }
    return { ok: false, error };
  }
}

/** A member's failure that took the whole transaction with it: the group ends here. */
class TransactionLost extends Error {
  constructor(
    readonly index: number,
    readonly original: unknown,
  ) {
    super('the group transaction was rolled back');
  }
}

/**
 * What the other members of a group get when one member's failure made SQLite roll back the
 * whole transaction: nothing of theirs was stored, and a retry is safe. Its code is SQLite's own
 * for "aborted because the transaction was rolled back", which isDatabaseUnavailable answers as
 * 503. It names the cause's code only: the cause itself is logged once, with the member that met it.
 */
class GroupRolledBack extends Error {
  readonly code = 'SQLITE_ABORT_ROLLBACK';

  constructor(cause: unknown) {
    const causeCode = errorCodeOf(cause);
    super(
      `rolled back with its group: another write of the same transaction failed${causeCode !== undefined ? ` (${causeCode})` : ''} and SQLite undid the whole transaction; nothing of this write was stored`,
    );
    this.name = 'GroupRolledBack';
  }
}

/** A lone member's own failure, carried out of the transaction so it is rolled back. */
class MemberFailed extends Error {
  constructor(readonly original: unknown) {
    super('group member failed');
  }
}
