/**
 * Retrying a transaction the database aborted to resolve a conflict with another one. PostgreSQL
 * may abort a transaction with a serialization failure (40001) or pick it as a deadlock victim
 * (40P01); nothing was written, and running it again is the documented remedy. The client never
 * sees these: after a few attempts the answer is 503 with Retry-After, never 500.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { type WriteOptions, writeTransaction } from './dialect.js';
import { errorCodeOf } from './error-code.js';

const CONFLICT_CODES = new Set(['40001', '40P01']);

/** True for an error that aborted a transaction only because of a concurrent one. */
export function isTransactionConflict(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code !== undefined && CONFLICT_CODES.has(code);
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts?: number;
}

const DEFAULT_CONFLICT_ATTEMPTS = 5;

/**
 * Runs `transaction` (which must do nothing but database work, so a rerun is safe) until it does
 * not end in a conflict, at most `attempts` times. A short random pause between attempts keeps
 * the transactions that collided from colliding again in lockstep.
 */
export async function retryConflicts<T>(transaction: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? DEFAULT_CONFLICT_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= attempts) {
        throw new AppError('service_unavailable', `the change collided with concurrent changes ${attempts} times; retry later`);
      }
      await sleep(Math.floor(Math.random() * 10 * attempt));
    }
  }
}

/** `writeTransaction`, run again when the database aborted it for a conflict with another. */
export function retriedWriteTransaction<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>, options?: RetryOptions & WriteOptions): Promise<T> {
  return retryConflicts(() => writeTransaction(db, work, options), options);
}
