/** The pets use cases. No HTTP here: routes, the CLI and tests all call these functions. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { RECORDS_EVENTS, singleWrite } from '../db/dialect.js';
import { retriedWriteTransaction } from '../db/retry-conflicts.js';
import { AppError } from '../errors.js';
import { refuseWhileOrderHoldsPet } from '../orders/orders.service.js';
import { prefixRange } from './pet-name-key.js';
import { petCursorFilters, petCursors } from './pets.cursor.js';
import { DEFAULT_PET_STATUS, type ListPetsQuery, type NewPet, type Pet, type PetPatch } from './pets.schemas.js';
import { deletePetRow, findPetById, findPetsAfter, insertPet, type ListedPetRow, lockPetById, updatePetRow, type VersionedPetRow } from './pets.repository.js';

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
  const filter = {
    status: bound.status,
    categoryId: bound.categoryId,
    ids: bound.id,
    nameKeys: bound.name === undefined ? undefined : prefixRange(bound.name),
  };
  // One extra row tells whether a next page exists without a second query.
  const rows = await findPetsAfter(db, { afterId, filter, limit: query.limit + 1 });
  // The rows hold a pet's columns and nothing else (pets.repository.ts), so they are the answer as they are.
  const pets: Pet[] = rows.slice(0, query.limit);
  const last = pets.at(-1);
  return rows.length > query.limit && last ? { pets, nextCursor: cursors.encode(last.id, bound) } : { pets };
}

/** A pet with the version its ETag is made from. */
export interface VersionedPet {
  pet: Pet;
  version: number;
}

/** A condition on a change: when `versions` is given, the change happens only if the stored version is one of them. */
export interface ChangeCondition {
  versions?: readonly number[] | undefined;
  /**
   * The condition listed weak entity tags, which never match (If-Match compares strongly): `only`
   * them, or `also` strong ones. It changes no outcome, only what a refusal says: a weak form of
   * the current tag is no sign that the pet changed.
   */
  weakTags?: 'only' | 'also' | undefined;
}

export async function createPet(db: Kysely<Database>, newPet: NewPet, now: () => number = Date.now): Promise<VersionedPet> {
  const row = { ...newPet, status: newPet.status ?? DEFAULT_PET_STATUS, createdAt: now() };
  return versioned(await singleWrite(db, (writer) => insertPet(writer, row), RECORDS_EVENTS));
}

export async function getPet(db: Kysely<Database>, id: number): Promise<VersionedPet> {
  const row = await findPetById(db, id);
  if (!row) throw petNotFound(id);
  return versioned(row);
}

/**
 * Applies a merge patch. The version check and the write are one statement, so of two changes
 * made from the same version exactly one applies. A change of status is also a change of what the
 * store's orders hold: it runs in one transaction that locks the pet first, as every order change
 * does, and is refused while an order holds the pet's status (orders.service
 * `refuseWhileOrderHoldsPet`, the one place of that rule). A status equal to the current one is
 * no change, so a client may send the whole pet back with another name.
 */
export async function updatePet(db: Kysely<Database>, id: number, patch: PetPatch, condition: ChangeCondition = {}): Promise<VersionedPet> {
  if (patch.status === undefined) {
    const row =
      condition.versions?.length === 0 ? undefined : await singleWrite(db, (writer) => updatePetRow(writer, id, patch, condition.versions), RECORDS_EVENTS);
    if (!row) throw await whyUnchanged(db, id, condition);
    return versioned(row);
  }
  return retriedWriteTransaction(
    db,
    async (trx) => {
      const current = await lockedPetMeeting(trx, id, condition);
      if (patch.status !== current.status) await refuseWhileOrderHoldsPet(trx, id, 'status');
      return versioned((await updatePetRow(trx, id, patch))!);
    },
    RECORDS_EVENTS,
  );
}

/**
 * Removes a pet for good: its id then answers 404 and is never given to another pet. Refused
 * while it has an open order; its closed orders stay, with its id. Locks the pet first, as
 * every order change does.
 */
export async function deletePet(db: Kysely<Database>, id: number, condition: ChangeCondition = {}): Promise<void> {
  await retriedWriteTransaction(
    db,
    async (trx) => {
      await lockedPetMeeting(trx, id, condition);
      await refuseWhileOrderHoldsPet(trx, id, 'removal');
      await deletePetRow(trx, id);
    },
    RECORDS_EVENTS,
  );
}

/** Locks the pet (inside a write transaction) and answers it, or throws 404, or 412 when the condition fails. */
async function lockedPetMeeting(trx: Kysely<Database>, id: number, condition: ChangeCondition): Promise<VersionedPetRow> {
  const pet = await lockPetById(trx, id);
  if (!pet) throw petNotFound(id);
  if (condition.versions && !condition.versions.includes(pet.version)) throw preconditionFailed(id, condition);
  return pet;
}

/**
 * Why a conditional change did not happen. Read after the refused write, so it only chooses the
 * answer: a pet removed meanwhile is 404, as it would have been had the change come later.
 */
async function whyUnchanged(db: Kysely<Database>, id: number, condition: ChangeCondition): Promise<AppError> {
  if (!(await findPetById(db, id))) return petNotFound(id);
  return preconditionFailed(id, condition);
}

function preconditionFailed(id: number, condition: ChangeCondition): AppError {
  if (condition.weakTags === 'only') {
    return new AppError(
      'precondition_failed',
      `pet ${id}: If-Match names only weak entity tags (W/"…"), which never match: If-Match compares strongly (RFC 9110 §13.1.1); send the ETag of the last answer exactly as received, without W/`,
    );
  }
  const weakToo = condition.weakTags === 'also' ? ' (weak entity tags (W/"…") never match)' : '';
  return new AppError(
    'precondition_failed',
    `pet ${id} has changed since the ETag in If-Match was read; read it again for its current ETag and retry${weakToo}`,
  );
}

function petNotFound(id: number): AppError {
  return new AppError('pet_not_found', `no pet has id ${id}`);
}

function versioned(row: VersionedPetRow): VersionedPet {
  return { pet: toPet(row), version: row.version };
}

function toPet(row: ListedPetRow): Pet {
  return { id: row.id, name: row.name, categoryId: row.categoryId, status: row.status };
}
