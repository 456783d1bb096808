/**
 * Where the cursor secret comes from: `CURSOR_SECRET` when the operator set it, else a secret the
 * service made once and keeps in the database (shared by every instance on it). Read at the first
 * listing rather than at start, so building the app needs no database; a failed read is retried
 * by the next listing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { obtainServiceSecret } from '../secrets/service-secrets.js';

export const CURSOR_SECRET_NAME = 'cursor';

export function cursorSecretSource(db: Kysely<Database>, configured: string | undefined): () => Promise<string> {
  if (configured !== undefined) return async () => configured;
  let pending: Promise<string> | undefined;
  return () => {
    pending ??= obtainServiceSecret(db, CURSOR_SECRET_NAME).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
