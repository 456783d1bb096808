/** SQL for pets. Every function takes the database (or a transaction) first. */
import type { Kysely } from 'kysely';
import { compiledQuery, type CompiledQueryOf } from '../db/compiled-query.js';
import { forUpdate, type IdListParameter, idIn, idListParameter } from '../db/dialect.js';
import type { Database, NewPetRow, PetRow, PetStatus } from '../db/database.js';
import { type KeyRange, petNameKey } from './pet-name-key.js';
import { firstRows, pageLimit } from '../db/page-limit.js';

/** The fields a change may set. */
export type PetChanges = Partial<Pick<PetRow, 'name' | 'categoryId' | 'status'>>;

/** Inserts a pet; its id comes from the table's own sequence. */
const insertPetRow = compiledQuery<Database, Pick<PetRow, 'name' | 'nameKey' | 'categoryId' | 'status' | 'createdAt'>, PetRow>((db, value) =>
  db
    .insertInto('pets')
    .values({ name: value('name'), nameKey: value('nameKey'), categoryId: value('categoryId'), status: value('status'), createdAt: value('createdAt') })
    .returningAll(),
);

export async function insertPet(db: Kysely<Database>, row: Omit<NewPetRow, 'nameKey'>): Promise<PetRow> {
  const { name, categoryId, status, createdAt } = row;
  // The search key is derived here, where the name is written, so no writer can store a name without its key.
  const [inserted] = await insertPetRow.execute(db, { name, nameKey: petNameKey(name), categoryId, status, createdAt });
  if (!inserted) throw new Error('the insert of a pet answered no row');
  return inserted;
}

/** A pet's columns as the API shows them: what a listing reads. */
const PET_COLUMNS = ['id', 'name', 'categoryId', 'status'] as const;
export type ListedPetRow = Pick<PetRow, (typeof PET_COLUMNS)[number]>;

/** A pet as the API shows it, with the version its ETag is made from. */
export type VersionedPetRow = ListedPetRow & Pick<PetRow, 'version'>;

// Only the columns an answer needs: pg parses every column of every row it receives, and a page
// of 21 rows of all seven columns cost about a tenth more CPU per listing (docs/performance.md).
const selectPetById = compiledQuery<Database, { id: number }, VersionedPetRow>((db, value) =>
  db
    .selectFrom('pets')
    .select([...PET_COLUMNS, 'version'])
    .where('id', '=', value('id')),
);

export async function findPetById(db: Kysely<Database>, id: number): Promise<VersionedPetRow | undefined> {
  return (await selectPetById.execute(db, { id }))[0];
}

/**
 * Reads the pet and locks it until the transaction ends (run it inside `writeTransaction`). Every
 * transaction that changes a pet's status together with its orders takes this lock first, so they
 * all queue in one order (no deadlocks) and each sees the orders the one before it committed.
 */
export async function lockPetById(db: Kysely<Database>, id: number): Promise<PetRow | undefined> {
  return forUpdate(db, db.selectFrom('pets').selectAll().where('id', '=', id)).executeTakeFirst();
}

/**
 * Sets `changes` and moves the version on by one, in one statement, only if the pet exists and,
 * when `versions` is given (never empty), its version is one of them. Concurrent updates of one
 * row queue on its lock, and each re-checks the condition against the row the one before it left.
 */
export async function updatePetRow(db: Kysely<Database>, id: number, changes: PetChanges, versions?: readonly number[]): Promise<PetRow | undefined> {
  // Named one by one, so nothing but these three columns can ever come from a request.
  const { name, categoryId, status } = changes;
  let update = db
    .updateTable('pets')
    .set((eb) => ({
      // The search key follows the name, as in insertPet, so a renamed pet is found by its new name.
      ...(name === undefined ? {} : { name, nameKey: petNameKey(name) }),
      ...(categoryId === undefined ? {} : { categoryId }),
      ...(status === undefined ? {} : { status }),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id);
  if (versions) update = update.where(versionIn(db, versions));
  return update.returningAll().executeTakeFirst();
}

/** Deletes the pet if it exists and, when `versions` is given (never empty), its version is one of them. */
export async function deletePetRow(db: Kysely<Database>, id: number, versions?: readonly number[]): Promise<{ deleted: boolean }> {
  let remove = db.deleteFrom('pets').where('id', '=', id);
  if (versions) remove = remove.where(versionIn(db, versions));
  const result = await remove.executeTakeFirst();
  return { deleted: result.numDeletedRows > 0n };
}

/**
 * The versions of an If-Match as one parameter: one statement text whatever the number of tags,
 * where one per number let a client fill the bound of prepared statements (db/postgres/prepared-statements.ts).
 */
function versionIn(db: Kysely<Database>, versions: readonly number[]) {
  return idIn(db, idListParameter(db, versions), 'version');
}

/** What a listing selects; every filter given must hold. */
export interface PetFilter {
  status?: PetStatus | undefined;
  categoryId?: number | undefined;
  /** Search keys of names (pets/pet-name-key.ts) in this range. */
  nameKeys?: KeyRange | undefined;
  /** One of these ids. */
  ids?: readonly number[] | undefined;
}

/**
 * Committed pets with an id above `afterId` that pass the filter, in ascending id order. Each
 * filter has an index ending in id (status, category, name key; ids use the primary key), so a
 * page reads the matching rows, never the whole table; docs/performance.md shows the plans.
 */
export async function findPetsAfter(db: Kysely<Database>, query: PetsAfterQuery): Promise<ListedPetRow[]> {
  const { filter } = query;
  const values = {
    afterId: query.afterId,
    status: filter.status,
    categoryId: filter.categoryId,
    ids: filter.ids === undefined || isOneId(filter.ids) ? undefined : idListParameter(db, filter.ids),
    id: filter.ids !== undefined && isOneId(filter.ids) ? filter.ids[0] : undefined,
    from: filter.nameKeys?.from,
    to: filter.nameKeys?.to,
  };
  return firstRows(await compiledPetsAfter(shapeOf(query)).execute(db, values), query.limit);
}

/**
 * The listing's statements compiled once per shape (which filters, the LIMIT of db/page-limit.ts),
 * built by selectPetsAfter itself with placeholders for the values (db/compiled-query.ts). Shapes
 * are few: 24 sets of filters (ids: none, one, a list) times 7 limits.
 */
const petsAfterByShape = new Map<string, CompiledQueryOf<Record<string, unknown>, ListedPetRow>>();

function shapeOf({ filter, limit }: PetsAfterQuery): string {
  const ids = filter.ids === undefined ? 'none' : isOneId(filter.ids) ? 'one' : 'list';
  return [filter.status !== undefined, filter.categoryId !== undefined, ids, filter.nameKeys !== undefined, filter.nameKeys?.to !== undefined, limit].join();
}

function compiledPetsAfter(shape: string): CompiledQueryOf<Record<string, unknown>, ListedPetRow> {
  let compiled = petsAfterByShape.get(shape);
  if (compiled === undefined) {
    const [hasStatus, hasCategory, ids, hasFrom, hasTo, limit] = shape.split(',');
    compiled = compiledQuery<Database, Record<string, unknown>, ListedPetRow>((db, value) =>
      selectPetsAfter(db, {
        afterId: value('afterId') as number,
        filter: {
          status: hasStatus === 'true' ? (value('status') as PetStatus) : undefined,
          categoryId: hasCategory === 'true' ? (value('categoryId') as number) : undefined,
          ids: ids === 'one' ? [value('id') as number] : ids === 'list' ? (value('ids') as IdListParameter) : undefined,
          nameKeys: hasFrom === 'true' ? { from: value('from') as string, to: hasTo === 'true' ? (value('to') as string) : undefined } : undefined,
        },
        limit: Number(limit),
      }),
    );
    petsAfterByShape.set(shape, compiled);
  }
  return compiled;
}

/** A filter whose id list is already one statement parameter (compiled statements pass a placeholder). */
type PetFilterParameters = Omit<PetFilter, 'ids'> & { ids?: readonly number[] | IdListParameter | undefined };

export interface PetsAfterQuery {
  afterId: number;
  filter: PetFilter;
  limit: number;
}

/** The statement of findPetsAfter, unexecuted: the query-plan tests explain this very statement. */
export function selectPetsAfter(db: Kysely<Database>, query: PetsAfterQuery | (Omit<PetsAfterQuery, 'filter'> & { filter: PetFilterParameters })) {
  const { filter } = query;
  let select = db.selectFrom('pets').select(PET_COLUMNS).where('id', '>', query.afterId);
  if (filter.status !== undefined) select = select.where('status', '=', filter.status);
  if (filter.categoryId !== undefined) select = select.where('categoryId', '=', filter.categoryId);
  if (filter.ids !== undefined && isOneId(filter.ids)) select = select.where('id', '=', filter.ids[0]);
  else if (filter.ids !== undefined) select = select.where(idIn(db, Array.isArray(filter.ids) ? idListParameter(db, filter.ids) : filter.ids));
  if (filter.nameKeys !== undefined) {
    select = select.where('nameKey', '>=', filter.nameKeys.from);
    if (filter.nameKeys.to !== undefined) select = select.where('nameKey', '<', filter.nameKeys.to);
  }
  return select.orderBy('id').limit(pageLimit(query.limit));
}

/**
 * One id (`?id=7`, getPet's replacement) is compared as such: the list read as JSON (`json_each`)
 * cost a page found by id several times the lookup itself on SQLite. Only this one length has a
 * statement of its own; longer lists share one (db/dialect.ts `idIn`).
 */
function isOneId(ids: readonly number[] | IdListParameter): ids is readonly [number] {
  return Array.isArray(ids) && ids.length === 1;
}
