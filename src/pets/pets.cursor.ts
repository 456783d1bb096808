/**
 * The pets listing's cursors: the generic signed codec (pagination/cursor.ts), bound to the pets'
 * filters in a canonical form, so requests that select the same pets may continue each other's
 * walks (`id=9&id=7` and `id=7&id=9`, `name=REX` and `name=rex`).
 */
import type { PetStatus } from '../db/database.js';
import { cursorCodecPerSecret } from '../pagination/cursor.js';
import { petNameKey } from './pet-name-key.js';

export interface PetCursorFilters {
  [name: string]: string | number | readonly number[] | undefined;
  status?: PetStatus | undefined;
  categoryId?: number | undefined;
  /** The name prefix's search key, not the text as sent. */
  name?: string | undefined;
  /** A sorted set. */
  id?: readonly number[] | undefined;
}

export const petCursors = cursorCodecPerSecret<PetCursorFilters>({ listing: 'pets', filterNames: ['status', 'categoryId', 'name', 'id'] });

export function petCursorFilters(query: {
  status?: PetStatus | undefined;
  categoryId?: number | undefined;
  name?: string | undefined;
  id?: readonly number[] | undefined;
}): PetCursorFilters {
  return {
    status: query.status,
    categoryId: query.categoryId,
    name: query.name === undefined ? undefined : petNameKey(query.name),
    id: query.id === undefined ? undefined : [...new Set(query.id)].sort((a, b) => a - b),
  };
}
