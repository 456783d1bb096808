/** The pets use cases. No HTTP here: routes, the CLI and tests all call these functions. */
import type { Kysely } from 'kysely';
import type { Database, PetRow } from '../db/database.js';
import { AppError } from '../errors.js';
import { prefixRange } from './pet-name-key.js';
import { petCursorFilters, petCursors } from './pets.cursor.js';
import { DEFAULT_PET_STATUS, type ListPetsQuery, type NewPet, type Pet } from './pets.schemas.js';
import { findPetById, findPetsAfter, insertPet } from './pets.repository.js';

export interface PetPage {
  pets: Pet[];
  /** Present when more pets follow this page. */
  nextCursor?: string;
}

/**
 * One page of pets in ascending id order, after the cursor's position, under every filter given.
 * A cursor is only accepted with the filters it was made for (`limit` may change).
 */
export async function listPets(db: Kysely<Database>, query: ListPetsQuery & { limit: number }, cursorSecret: string): Promise<PetPage> {
  const bound = petCursorFilters(query);
  const cursors = petCursors(cursorSecret);
  const afterId = query.cursor === undefined ? 0 : cursors.decode(query.cursor, bound);
  const filter = { status: bound.status, categoryId: bound.categoryId, ids: bound.id, nameKeys: bound.name === undefined ? undefined : prefixRange(bound.name) };
  // One extra row tells whether a next page exists without a second query.
  const rows = await findPetsAfter(db, { afterId, filter, limit: query.limit + 1 });
  const pets = rows.slice(0, query.limit).map(toPet);
  const last = pets.at(-1);
  return rows.length > query.limit && last ? { pets, nextCursor: cursors.encode(last.id, bound) } : { pets };
}

export async function createPet(db: Kysely<Database>, newPet: NewPet, now: () => number = Date.now): Promise<Pet> {
  return toPet(await insertPet(db, { ...newPet, status: newPet.status ?? DEFAULT_PET_STATUS, createdAt: now() }));
}

export async function getPet(db: Kysely<Database>, id: number): Promise<Pet> {
  const row = await findPetById(db, id);
  if (!row) throw new AppError('pet_not_found', `no pet has id ${id}`);
  return toPet(row);
}

function toPet(row: PetRow): Pet {
  return { id: row.id, name: row.name, categoryId: row.categoryId, status: row.status };
}
