/** SQL for secrets the service keeps with its data. Every function takes the database first. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** Stores `value` under `name` unless a value is already there; answers whether it stored it. */
export async function insertServiceSecretIfAbsent(
  db: Kysely<Database>,
  row: { name: string; value: string; createdAt: number },
): Promise<{ inserted: boolean }> {
  const result = await db
    .insertInto('serviceSecrets')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return { inserted: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export async function findServiceSecret(db: Kysely<Database>, name: string): Promise<string | undefined> {
  return (await db.selectFrom('serviceSecrets').select('value').where('name', '=', name).executeTakeFirst())?.value;
}
