/**
 * The API keys' use cases over the API (list, create, read, revoke, and a key reading itself).
 * No HTTP here. A key never hands out more than it holds: it creates no key with a scope it lacks,
 * nor one that outlives it, and revokes no key holding a scope it lacks (which would let a key
 * cut off a more powerful one). The CLI, run by the operator, has no such limits (keys.service.ts).
 */
import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { cursorCodecPerSecret } from '../pagination/cursor.js';
import { findApiKeyById, findApiKeysAfter } from './keys.repository.js';
import type { ApiKey, CurrentApiKey, IssuedApiKey, ListApiKeysQuery, NewApiKey } from './keys.schemas.js';
import { type Clock, issueApiKey, revokeKey, summarizeKey } from './keys.service.js';
import { parseScopes, type Scope } from './scopes.js';

/** The API key making the request. */
export interface ActingKey {
  id: number;
  scopes: readonly Scope[];
}

/** 403 insufficient_scope naming the scopes the acting key lacks, for the route's challenge. */
export class KeyScopeRefusal extends AppError {
  constructor(
    readonly scopes: readonly Scope[],
    message: string,
  ) {
    super('insufficient_scope', message);
  }
}

/**
 * The latest expiry a key may have: the last millisecond of year 9999 in UTC. RFC 3339 (and every
 * answer's `date-time`) has four-digit years, so `9999-12-31T23:59:59-01:00`, which is year 10000
 * in UTC, would be stored and then fail every answer that lists the key.
 */
const LATEST_EXPIRY = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const keyCursors = cursorCodecPerSecret<Record<string, never>>({ listing: 'api-keys', filterNames: [] });

export async function createKey(db: Kysely<Database>, input: NewApiKey, acting: ActingKey, now: Clock): Promise<IssuedApiKey> {
  refuseScopesBeyond(acting, input.scopes, 'create a key with');
  const at = now();
  const expiresAt = input.expiresAt === undefined ? undefined : Date.parse(input.expiresAt);
  if (expiresAt !== undefined && expiresAt <= at) throw invalidExpiry(`must be in the future (now is ${new Date(at).toISOString()})`);
  if (expiresAt !== undefined && expiresAt > LATEST_EXPIRY) {
    throw invalidExpiry(`must be no later than ${new Date(LATEST_EXPIRY).toISOString()} (a four-digit year once in UTC)`);
  }
  // Read now, not from the verified key: the acting key's expiry bounds the new key's.
  const actingExpiry = (await findApiKeyById(db, acting.id))?.expiresAt ?? null;
  if (actingExpiry !== null && (expiresAt === undefined || expiresAt > actingExpiry)) {
    throw invalidExpiry(
      `must be given, and no later than ${new Date(actingExpiry).toISOString()}, when the key making this request expires: a key cannot outlive the key that makes it`,
    );
  }
  const issued = await issueApiKey(db, { name: input.name, scopes: input.scopes, expiresAt }, () => at);
  return { ...toApiKey(issued), key: issued.key };
}

export interface ApiKeyPage {
  keys: ApiKey[];
  /** Present when more keys follow this page. */
  nextCursor?: string;
}

export async function listKeysPage(db: Kysely<Database>, query: ListApiKeysQuery & { limit: number }, cursorSecret: string): Promise<ApiKeyPage> {
  const cursors = keyCursors(cursorSecret);
  const afterId = query.cursor === undefined ? 0 : cursors.decode(query.cursor, {});
  // One extra row tells whether a next page exists without a second query.
  const rows = await findApiKeysAfter(db, { afterId, limit: query.limit + 1 });
  const keys = rows.slice(0, query.limit).map((row) => toApiKey(summarizeKey(row)));
  const last = keys.at(-1);
  return rows.length > query.limit && last ? { keys, nextCursor: cursors.encode(last.id, {}) } : { keys };
}

export async function getKey(db: Kysely<Database>, id: number): Promise<ApiKey> {
  return toApiKey(summarizeKey(await foundKey(db, id)));
}

/** Revokes a key; `changed` is false when it was revoked already (the first time is kept). */
export async function revokeKeyAs(db: Kysely<Database>, id: number, acting: ActingKey, now: Clock): Promise<{ changed: boolean }> {
  const row = await foundKey(db, id);
  refuseScopesBeyond(acting, parseScopes(row.scopes), `revoke key ${id}, which holds`);
  if (row.revokedAt !== null) return { changed: false };
  const at = now();
  const revoked = await revokeKey(db, id, () => at);
  return { changed: revoked?.revokedAt?.getTime() === at };
}

/** The key making the request, as it describes itself to a console or a script. */
export async function describeKey(db: Kysely<Database>, id: number): Promise<CurrentApiKey> {
  const { name, prefix, scopes, expiresAt } = summarizeKey(await foundKey(db, id));
  return { id, name, prefix, scopes, expiresAt: expiresAt?.toISOString() ?? null };
}

async function foundKey(db: Kysely<Database>, id: number): Promise<ApiKeyRow> {
  const row = await findApiKeyById(db, id);
  if (!row) throw new AppError('api_key_not_found', `no API key has id ${id}`);
  return row;
}

function refuseScopesBeyond(acting: ActingKey, scopes: readonly Scope[], what: string): void {
  const lacking = scopes.filter((scope) => !acting.scopes.includes(scope));
  if (lacking.length === 0) return;
  throw new KeyScopeRefusal(
    lacking,
    `this key may not ${what} ${lacking.join(', ')}: a key hands out no scope it lacks itself; its scopes: ${acting.scopes.join(', ')}`,
  );
}

function invalidExpiry(problem: string): AppError {
  return new AppError('validation_failed', `body.expiresAt ${problem}`, [{ field: 'body.expiresAt', message: problem }]);
}

function toApiKey(key: ReturnType<typeof summarizeKey>): ApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
