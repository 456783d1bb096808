/**
 * Idempotent writes, free of HTTP: reserve a key before a request runs, then store its answer or
 * release the key, and purge expired keys. idempotency.hooks.ts wires it to the routes that opt in.
 *
 * Which answers are kept (and replayed to retries) and which release the key so a retry runs
 * again follows Stripe's rule: an answer that reports a decision about the state (success, and
 * 404, 409) is kept; one that changed nothing (validation, authentication, scope, size, media
 * type, rate limit, a failed If-Match, and every 5xx) is not.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { singleWrite } from '../db/dialect.js';
import type { Database } from '../db/database.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  findIdempotencyKey,
  type KeyId,
  releaseIdempotencyKey,
  type StoredAnswer,
} from './idempotency.repository.js';

export type { StoredAnswer } from './idempotency.repository.js';

/** How long a reservation may stay in progress before a retry with the same request may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/**
 * Statuses kept besides 2xx: they say what the state is (absent, in conflict). A 412 is not
 * kept although it too reports the state: its documented recovery is "read it again, then
 * retry" with the new ETag, and a kept 412 would answer that retry with the stale refusal for
 * the key's whole lifetime. The If-Match header is not part of the fingerprint (a retry is the
 * same request whatever it was conditioned on), so releasing the key is what lets it run.
 */
export const KEPT_ERROR_STATUSES: readonly number[] = [404, 409];

export function isKeptStatus(status: number): boolean {
  return (status >= 200 && status < 300) || KEPT_ERROR_STATUSES.includes(status);
}

export interface IdempotencyOptions {
  now: () => number;
  ttlMs: number;
  leaseMs?: number;
}

export type Reservation =
  /** This request owns the key: run it, then `complete` or `release`. */
  | { outcome: 'reserved'; owner: string }
  /** A request with the same key and fingerprint finished: answer as it did. */
  | { outcome: 'replay'; answer: StoredAnswer }
  /** A request with the same key and fingerprint is still running. */
  | { outcome: 'in_progress' }
  /** The key was used for another request (another operation, path or body). */
  | { outcome: 'reused' };

export async function reserveIdempotencyKey(db: Kysely<Database>, id: KeyId, fingerprint: string, options: IdempotencyOptions): Promise<Reservation> {
  // A row seen by the claim may expire or be released before it is read; claim again then.
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = options.now();
    const owner = randomUUID();
    const claim = { ...id, fingerprint, owner, now, lockedUntil: now + (options.leaseMs ?? IDEMPOTENCY_LEASE_MS), expiresAt: now + options.ttlMs };
    if (await singleWrite(db, (writer) => claimIdempotencyKey(writer, claim))) return { outcome: 'reserved', owner };
    const row = await findIdempotencyKey(db, id);
    if (!row || row.expiresAt <= now) continue;
    if (row.fingerprint !== fingerprint) return { outcome: 'reused' };
    if (row.state === 'in_progress' || row.responseStatus === null) return { outcome: 'in_progress' };
    return {
      outcome: 'replay',
      answer: { status: row.responseStatus, headers: JSON.parse(row.responseHeaders ?? '{}') as Record<string, string>, body: row.responseBody },
    };
  }
  return { outcome: 'in_progress' };
}

/** After the request ran: keeps its answer when it reports the state, else releases the key. */
export async function settleIdempotencyKey(db: Kysely<Database>, id: KeyId, owner: string, answer: StoredAnswer): Promise<'kept' | 'released'> {
  if (isKeptStatus(answer.status)) {
    await singleWrite(db, (writer) => completeIdempotencyKey(writer, id, owner, answer));
    return 'kept';
  }
  await singleWrite(db, (writer) => releaseIdempotencyKey(writer, id, owner));
  return 'released';
}

const PURGE_BATCH_SIZE = 500;
/** Most batches one purge run deletes, so a backlog is worked off over several runs, never in one long one. */
const PURGE_MAX_BATCHES = 20;

/** Deletes expired keys in small batches (each its own short statement); returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: number, batchSize = PURGE_BATCH_SIZE): Promise<number> {
  let purged = 0;
  for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
    const deleted = await deleteExpiredIdempotencyKeys(db, now, batchSize);
    purged += deleted;
    if (deleted < batchSize) break;
  }
  return purged;
}
