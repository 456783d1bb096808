/** SQL for pets. Every function takes the database (or a transaction) first. */
import type { Kysely } from 'kysely';
import type { Database, NewPetRow, PetRow, PetStatus } from '../db/database.js';

export async function insertPet(db: Kysely<Database>, row: NewPetRow): Promise<PetRow> {
  return db.insertInto('pets').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPetById(db: Kysely<Database>, id: number): Promise<PetRow | undefined> {
  return db.selectFrom('pets').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Pets with an id above `afterId`, in ascending id order, optionally of one status. */
export async function findPetsAfter(
  db: Kysely<Database>,
  query: { afterId: number; status?: PetStatus | undefined; limit: number },
): Promise<PetRow[]> {
  let select = db.selectFrom('pets').selectAll().where('id', '>', query.afterId);
  if (query.status) select = select.where('status', '=', query.status);
  return select.orderBy('id').limit(query.limit).execute();
}
