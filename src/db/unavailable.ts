/**
 * Which errors mean "the database cannot serve now, try again" (answered 503 service_unavailable
 * by http/error-handler.ts), as opposed to a bug.
 */
import { DEADLINE_CODE } from './postgres/deadline.js';
import { isRefusedPrepared } from './postgres/prepared-statements.js';
import { isSqliteBusy } from './sqlite/lock-wait.js';

/** Errors that mean "the database cannot serve now, try again", as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const err = error as { code?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  const code = typeof err.code === 'string' ? err.code : '';
  return (
    UNAVAILABLE_CODES.has(code) ||
    isSqliteBusy(error) ||
    // PostgreSQL: connection exceptions (08…), insufficient resources (53…: too many connections,
    // out of memory, disk full), shutdown, start-up or a terminated session (57P…), statement
    // timeout (57014), a session ended for idling in its transaction (25P03).
    /^(08|53|57P)/.test(code) ||
    code === '57014' ||
    code === '25P03' ||
    // PostgreSQL: a table changed under a statement prepared on this connection, or the server forgot
    // it, inside a transaction (the driver drops the connection; a retry takes another).
    isRefusedPrepared(error) ||
    // SQLite: the disk is full, or the file could not be written.
    code.startsWith('SQLITE_FULL') ||
    code.startsWith('SQLITE_IOERR') ||
    // SQLite: rolled back with the rest of its transaction, as when another write of its group failed (sqlite/group-commit.ts).
    code === 'SQLITE_ABORT_ROLLBACK'
  );
}

const UNAVAILABLE_CODES = new Set([
  // Node's network errors.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // A connection lost under a statement (postgres/link.ts).
  'CONNECTION_CLOSED',
  // No answer within the operation's budget (postgres/deadline.ts).
  DEADLINE_CODE,
  'SQLITE_LOCKED',
]);
