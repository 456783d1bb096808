/**
 * The link to the server, as the driver's two ways of running a statement (driver.ts inside
 * Kysely, direct-read.ts outside it) both see it: a connection whose socket failed, ended or was
 * closed by a deadline is lost, nothing more is sent on it, and the pool drops it; a failure of
 * the link (or of the pool's wait for a connection) is told apart from a statement's own as
 * unavailable (503), and a session the server ended is not handed out again.
 */
import type net from 'node:net';
import type pg from 'pg';
import { deadlineError, startBudget } from './deadline.js';

const lostClients = new WeakSet<pg.PoolClient>();
const watchedClients = new WeakSet<pg.PoolClient>();

/** Its socket failed, ended or was closed by a deadline. */
export function isLost(client: pg.PoolClient): boolean {
  return lostClients.has(client);
}

/**
 * Marks the connection lost when its socket fails or ends. Listened to once for the connection's
 * life, not per statement; the listener also keeps pg from throwing the error of a connection in
 * use, which has no other listener then.
 */
export function watchLink(client: pg.PoolClient): void {
  if (watchedClients.has(client)) return;
  watchedClients.add(client);
  const onLost = () => lostClients.add(client);
  client.on('error', onLost).on('end', onLost);
}

/** A statement passed its deadline: what is stuck on this connection stays stuck, so it is closed at once. */
export function closeLink(client: pg.PoolClient): void {
  lostClients.add(client);
  (client as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();
}

/** A statement's failure as the caller sees it: on a lost connection, the loss (unavailable). */
export function failureOn<E>(client: pg.PoolClient, error: E): E | Error {
  return isLost(client) ? closedError(error as Error) : error;
}

/** The failure of a statement about to be sent on a connection already lost. */
export function alreadyClosed(): Error {
  return closedError(new Error('the connection was closed'));
}

/** An error of the link, not of the statement (pg gives those no code): unavailable, answered 503. */
function closedError(error: Error): Error {
  if ((error as { code?: unknown }).code) return error;
  return Object.assign(new Error(`the database connection was lost (${error.message})`), { code: 'CONNECTION_CLOSED' });
}

/** Why the pool gave no connection: its wait timed out (a deadline), or the other end closed the link first. */
export function connectFailure(error: Error, pool: pg.Pool, budgetMs: number): Error {
  if (/timeout/.test(error.message)) return deadlineError(startBudget(pool.options.connectionTimeoutMillis ?? budgetMs));
  // Closed by the other end before the server answered (a balancer or proxy with no server behind it): unavailable.
  return /^Connection terminated/.test(error.message) ? closedError(error) : error;
}

/**
 * The server ended the session with this error (a FATAL one: the backend was terminated, the
 * server is shutting down); the socket closes a moment later, so the connection is not handed out again.
 */
export function endsSession(error: unknown): boolean {
  const severity = (error as { severity?: unknown } | null)?.severity;
  return severity === 'FATAL' || severity === 'PANIC';
}

/** What a connection is released with to have the pool close it rather than keep it. */
export function dropped(): Error {
  return new Error('closed after a deadline or a lost connection, or holding a stale statement');
}
