/**
 * Secrets the service makes for itself and keeps with its data, so every process and instance
 * on one database uses the same one without configuration.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { findServiceSecret, insertServiceSecretIfAbsent } from './service-secrets.repository.js';

/**
 * The secret stored under `name`, made now when there is none. Instances starting together each
 * offer a random value; the first insert wins and every one of them reads the winner back.
 */
export async function obtainServiceSecret(db: Kysely<Database>, name: string, now: () => number = Date.now): Promise<string> {
  // Read first: the migrations make the secrets serving needs, so the write below is only a fallback.
  const existing = await findServiceSecret(db, name);
  if (existing !== undefined) return existing;
  await insertServiceSecretIfAbsent(db, { name, value: randomBytes(32).toString('base64url'), createdAt: now() });
  const stored = await findServiceSecret(db, name);
  if (stored === undefined) throw new Error(`service secret ${name} vanished right after it was stored`);
  return stored;
}
