/** SQL for API keys. Every function takes the database (or a transaction) first. */
import { type Kysely, sql } from 'kysely';
import type { ApiKeyRow, Database, NewApiKeyRow } from '../db/database.js';
import { idIn, idListParameter, numberOfId } from '../db/dialect.js';

export async function insertApiKey(db: Kysely<Database>, row: NewApiKeyRow): Promise<ApiKeyRow> {
  return db.insertInto('apiKeys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findApiKeyByHash(db: Kysely<Database>, secretHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('apiKeys').selectAll().where('secretHash', '=', secretHash).executeTakeFirst();
}

/** The hashes of the keys neither revoked nor expired at `at`: the whole set keys/usable-keys.ts keeps. */
export async function listUsableKeyHashes(db: Kysely<Database>, at: number): Promise<string[]> {
  const rows = await db
    .selectFrom('apiKeys')
    .select('secretHash')
    .where('revokedAt', 'is', null)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', at)]))
    .execute();
  return rows.map((row) => row.secretHash);
}

export async function findApiKeyById(db: Kysely<Database>, id: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('apiKeys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** At most `limit` keys after `afterId`, in ascending id order: one page of a listing. */
export async function findApiKeysAfter(db: Kysely<Database>, page: { afterId: number; limit: number }): Promise<ApiKeyRow[]> {
  return db.selectFrom('apiKeys').selectAll().where('id', '>', page.afterId).orderBy('id').limit(page.limit).execute();
}

export async function listApiKeys(db: Kysely<Database>): Promise<ApiKeyRow[]> {
  return db.selectFrom('apiKeys').selectAll().orderBy('id').execute();
}

export async function anyApiKeyExists(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('apiKeys').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Marks a key revoked; answers the row, or undefined when no key has this id. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Kysely<Database>, id: number, revokedAt: number): Promise<ApiKeyRow | undefined> {
  await db.updateTable('apiKeys').set({ revokedAt }).where('id', '=', id).where('revokedAt', 'is', null).execute();
  return db.selectFrom('apiKeys').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Records the last use of many keys in one statement; a time never moves back, so a flush that
 * arrives late from another instance cannot hide a later use.
 */
export async function recordKeysLastUsed(db: Kysely<Database>, lastUse: ReadonlyMap<number, number>): Promise<void> {
  if (lastUse.size === 0) return;
  // The ids and their times are one parameter each: one statement text whatever the number of keys.
  const ids = [...lastUse.keys()];
  const newest = numberOfId(db, JSON.stringify(Object.fromEntries(lastUse)));
  await db
    .updateTable('apiKeys')
    .set({
      lastUsedAt: sql<number>`case when ${sql.ref('lastUsedAt')} is null or ${sql.ref('lastUsedAt')} < ${newest} then ${newest} else ${sql.ref('lastUsedAt')} end`,
    })
    .where(idIn(db, idListParameter(db, ids)))
    .execute();
}
