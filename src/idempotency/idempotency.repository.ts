/** The SQL of idempotency keys. Every function takes `db` first, so the caller owns the transaction. */
import type { Kysely } from 'kysely';
import type { Database, IdempotencyKeyRow } from '../db/database.js';

export interface KeyId {
  apiKeyId: number;
  idempotencyKey: string;
}

export interface Claim extends KeyId {
  fingerprint: string;
  owner: string;
  now: number;
  lockedUntil: number;
  expiresAt: number;
}

/**
 * Reserves the key in one atomic statement: inserts it, or takes over a row that is expired, or
 * one left in progress past its lease by a request with the same fingerprint (a process that
 * died mid-request). True when this claim now owns the row; false when another holds it.
 */
export async function claimIdempotencyKey(db: Kysely<Database>, claim: Claim): Promise<boolean> {
  const changes = {
    fingerprint: claim.fingerprint,
    state: 'in_progress' as const,
    owner: claim.owner,
    lockedUntil: claim.lockedUntil,
    responseStatus: null,
    responseHeaders: null,
    responseBody: null,
    createdAt: claim.now,
    expiresAt: claim.expiresAt,
  };
  const won = await db
    .insertInto('idempotencyKeys')
    .values({ apiKeyId: claim.apiKeyId, idempotencyKey: claim.idempotencyKey, ...changes })
    .onConflict((oc) =>
      oc
        .columns(['apiKeyId', 'idempotencyKey'])
        .doUpdateSet(changes)
        .where((eb) =>
          eb.or([
            eb('idempotencyKeys.expiresAt', '<=', claim.now),
            eb.and([
              eb('idempotencyKeys.state', '=', 'in_progress'),
              eb('idempotencyKeys.lockedUntil', '<=', claim.now),
              eb('idempotencyKeys.fingerprint', '=', claim.fingerprint),
            ]),
          ]),
        ),
    )
    .returning('owner')
    .executeTakeFirst();
  return won?.owner === claim.owner;
}

export async function findIdempotencyKey(db: Kysely<Database>, id: KeyId): Promise<IdempotencyKeyRow | undefined> {
  return db.selectFrom('idempotencyKeys').selectAll().where('apiKeyId', '=', id.apiKeyId).where('idempotencyKey', '=', id.idempotencyKey).executeTakeFirst();
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** Stores the answer of the request that owns the row; false when it no longer owns it. */
export async function completeIdempotencyKey(db: Kysely<Database>, id: KeyId, owner: string, answer: StoredAnswer): Promise<boolean> {
  const result = await db
    .updateTable('idempotencyKeys')
    .set({ state: 'done', responseStatus: answer.status, responseHeaders: JSON.stringify(answer.headers), responseBody: answer.body })
    .where('apiKeyId', '=', id.apiKeyId)
    .where('idempotencyKey', '=', id.idempotencyKey)
    .where('owner', '=', owner)
    .where('state', '=', 'in_progress')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes the reservation of the request that owns it, so a retry runs afresh. */
export async function releaseIdempotencyKey(db: Kysely<Database>, id: KeyId, owner: string): Promise<boolean> {
  const result = await db
    .deleteFrom('idempotencyKeys')
    .where('apiKeyId', '=', id.apiKeyId)
    .where('idempotencyKey', '=', id.idempotencyKey)
    .where('owner', '=', owner)
    .where('state', '=', 'in_progress')
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes at most `limit` expired rows (oldest first, by the expires_at index); returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Kysely<Database>, now: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotencyKeys')
    .where((eb) =>
      eb(
        eb.refTuple('apiKeyId', 'idempotencyKey'),
        'in',
        eb
          .selectFrom('idempotencyKeys')
          .select(['apiKeyId', 'idempotencyKey'])
          .where('expiresAt', '<=', now)
          .orderBy('expiresAt')
          .limit(limit)
          .$asTuple('apiKeyId', 'idempotencyKey'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
