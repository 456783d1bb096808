/**
 * Page cursors: opaque to clients, but simply the last id of the previous page and the status
 * filter it was made for. Ids only grow, so walking `id > after` returns every pet once, and
 * pets added meanwhile appear at the end of the walk (createPet commits pets in id order).
 */
import { AppError } from '../errors.js';
import type { PetStatus } from '../db/database.js';
import { PET_STATUSES } from './pets.schemas.js';

interface CursorPosition {
  afterId: number;
  status: PetStatus | null;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ v: 1, a: position.afterId, s: position.status })).toString('base64url');
}

export function decodeCursor(cursor: string, status: PetStatus | undefined): number {
  const position = parse(cursor);
  if (!position) throw new AppError('invalid_cursor', 'cursor is not a cursor this service made; use the Link header of the previous page');
  if (position.status !== (status ?? null)) {
    throw new AppError(
      'invalid_cursor',
      `cursor was made for ${position.status === null ? 'no status filter' : `status=${position.status}`}; repeat the same status filter or start again without a cursor`,
    );
  }
  return position.afterId;
}

function parse(cursor: string): CursorPosition | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { v, a, s } = value as Record<string, unknown>;
    const validStatus = s === null || PET_STATUSES.includes(s as PetStatus);
    if (v !== 1 || !Number.isSafeInteger(a) || (a as number) < 0 || !validStatus) return undefined;
    return { afterId: a as number, status: s as PetStatus | null };
  } catch {
    return undefined;
  }
}
