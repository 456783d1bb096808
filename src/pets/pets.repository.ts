/** SQL for pets. Every function takes the database (or a transaction) first. */
import type { Kysely } from 'kysely';
import { waitForInsertTurn } from '../db/dialect.js';
import type { Database, NewPetRow, PetRow, PetStatus } from '../db/database.js';

/** The fields a change may set. */
export type PetChanges = Partial<Pick<PetRow, 'name' | 'categoryId' | 'status'>>;

/**
 * Inserts a pet in one statement that waits for its turn before drawing an id, so pets become
 * visible in id order and a reader paging by `id > cursor` never passes one still committing.
 */
export async function insertPet(db: Kysely<Database>, row: NewPetRow): Promise<PetRow> {
  return db
    .with('insertTurn', (qc) => qc.selectNoFrom(waitForInsertTurn(db, 'pets.insert')))
    .insertInto('pets')
    .columns(['name', 'categoryId', 'status', 'createdAt'])
    .expression((eb) =>
      eb
        .selectFrom('insertTurn')
        // Typed casts: in INSERT … SELECT the target columns do not type the parameters.
        .select([
          eb.cast<string>(eb.val(row.name), 'text').as('name'),
          eb.cast<number>(eb.val(row.categoryId), 'bigint').as('categoryId'),
          eb.cast<string>(eb.val(row.status), 'text').as('status'),
          eb.cast<number>(eb.val(row.createdAt), 'bigint').as('createdAt'),
        ]),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findPetById(db: Kysely<Database>, id: number): Promise<PetRow | undefined> {
  return db.selectFrom('pets').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Sets `changes` and moves the version on by one, in one statement, only if the pet exists and,
 * when `versions` is given (never empty), its version is one of them. Concurrent updates of one
 * row queue on its lock, and each re-checks the condition against the row the one before it left.
 */
export async function updatePetRow(
  db: Kysely<Database>,
  id: number,
  changes: PetChanges,
  versions?: readonly number[],
): Promise<PetRow | undefined> {
  // Named one by one, so nothing but these three columns can ever come from a request.
  const { name, categoryId, status } = changes;
  let update = db
    .updateTable('pets')
    .set((eb) => ({
      ...(name === undefined ? {} : { name }),
      ...(categoryId === undefined ? {} : { categoryId }),
      ...(status === undefined ? {} : { status }),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id);
  if (versions) update = update.where('version', 'in', versions);
  return update.returningAll().executeTakeFirst();
}

/** Deletes the pet if it exists and, when `versions` is given (never empty), its version is one of them. */
export async function deletePetRow(db: Kysely<Database>, id: number, versions?: readonly number[]): Promise<{ deleted: boolean }> {
  let remove = db.deleteFrom('pets').where('id', '=', id);
  if (versions) remove = remove.where('version', 'in', versions);
  const result = await remove.executeTakeFirst();
  return { deleted: result.numDeletedRows > 0n };
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
