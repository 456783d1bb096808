/**
 * API keys: issue, list, revoke and verify. Used by access control (access/) and by the CLI; it knows
 * nothing of HTTP.
 */
import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../db/database.js';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-token.js';
import { createUsableKeySet, USABLE_KEYS_REFRESH_MS } from './usable-keys.js';
import { formatScopes, isScope, parseScopes, type Scope, SCOPES } from './scopes.js';
import { anyApiKeyExists, findApiKeyByHash, insertApiKey, listApiKeys, listUsableKeyHashes, revokeApiKey } from './keys.repository.js';

export type Clock = () => number;

/** A key as shown to an operator: everything but the secret. */
export interface ApiKeySummary {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  scopes: Scope[];
  /** The last use recorded by the service's last flush (KEY_LAST_USED_FLUSH_MS); null if never used since. */
  lastUsedAt: Date | null;
}

export interface IssuedApiKey extends ApiKeySummary {
  /** The plaintext key: shown once, never stored. */
  key: string;
}

/** The longest name a key may have, after its surrounding white space is removed (the CLI and the API). */
export const KEY_NAME_MAX_LENGTH = 100;

export async function issueApiKey(
  db: Kysely<Database>,
  input: { name: string; expiresInMs?: number | undefined; expiresAt?: number | undefined; scopes?: readonly Scope[] | undefined },
  now: Clock = Date.now,
): Promise<IssuedApiKey> {
  const name = input.name.trim();
  if (name === '' || name.length > KEY_NAME_MAX_LENGTH) throw new Error(`A key name must have 1 to ${KEY_NAME_MAX_LENGTH} characters.`);
  // No scopes named means every scope of this version, keys:manage included (the CLI without --scope, the bootstrap key).
  const scopes = input.scopes === undefined ? SCOPES : input.scopes;
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) throw new Error(`Unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}.`);
  if (scopes.length === 0) throw new Error('A key needs at least one scope.');
  const { key, prefix, secretHash } = generateApiKey();
  const createdAt = now();
  const row = await insertApiKey(db, {
    name,
    prefix,
    secretHash,
    createdAt,
    expiresAt: input.expiresAt ?? (input.expiresInMs === undefined ? null : createdAt + input.expiresInMs),
    revokedAt: null,
    scopes: formatScopes(scopes),
  });
  return { ...summarizeKey(row), key };
}

export async function listKeys(db: Kysely<Database>): Promise<ApiKeySummary[]> {
  return (await listApiKeys(db)).map(summarizeKey);
}

export async function hasAnyKey(db: Kysely<Database>): Promise<boolean> {
  return anyApiKeyExists(db);
}

export async function revokeKey(db: Kysely<Database>, id: number, now: Clock = Date.now): Promise<ApiKeySummary | undefined> {
  const row = await revokeApiKey(db, id, now());
  return row && summarizeKey(row);
}

export function summarizeKey(row: ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: new Date(row.createdAt),
    expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
    revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt),
    scopes: parseScopes(row.scopes),
    lastUsedAt: row.lastUsedAt === null || row.lastUsedAt === undefined ? null : new Date(row.lastUsedAt),
  };
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `--expires-in` values such as `90s`, `15m`, `12h`, `30d`. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * DURATION_UNITS[match[2]!]!;
  return ms > 0 ? ms : undefined;
}

export interface VerifiedKey {
  id: number;
  prefix: string;
  scopes: Scope[];
}

/**
 * What verifying a token found. `unknown_key`: no usable key has the token's hash, even after
 * a fresh read of the usable keys, so it was refused without a lookup of its own;
 * `not_usable`: it was looked up and is unknown, revoked or expired; `malformed`: not a key's shape.
 */
export type KeyCheck = { key: VerifiedKey } | { key: undefined; failure: 'malformed' | 'unknown_key' | 'not_usable' };

export interface KeyVerifier {
  verify(token: string): Promise<KeyCheck>;
  /** What `verify` would answer for a token verified in the last cacheTtlMs, at once; undefined for any other token. */
  verifyCached(token: string): KeyCheck | undefined;
  /** Drops a revoked key from the cache at once and re-reads the usable keys (a revocation published by the fleet). */
  forget(keyId: number): void;
  /**
   * Reads the usable keys once, before the first request. Without it the first requests of a
   * fresh process raced the first read: those arriving while it ran waited for the next one,
   * a whole refresh interval (a second), on every restart under load.
   */
  warm(): Promise<void>;
}

/**
 * Verifies bearer keys, remembering keys found valid for `cacheTtlMs` so the hot path does
 * not query the database on every request. The price is bounded: a revoked key keeps working
 * on an instance for at most `cacheTtlMs`. Unknown keys are never cached; expiry is checked on
 * every call against the clock.
 *
 * A token that is no usable key's costs no lookup of its own (see usable-keys.ts), even one that
 * copies a real key's prefix: it waits for the next shared read of the usable keys' hashes, at
 * most about `usableKeysRefreshMs`, so a key made a moment ago, in any process, still works on its
 * first request.
 */
export function createKeyVerifier(
  db: Kysely<Database>,
  options: {
    cacheTtlMs: number;
    now?: Clock;
    maxEntries?: number;
    usableKeysRefreshMs?: number;
    /** Told of every request a key passes (keys/key-usage.ts gathers them). */
    onUse?: (keyId: number, at: number) => void;
  },
): KeyVerifier {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  // Keyed by the token itself, so a key verified in the last cacheTtlMs costs one map lookup:
  // no SHA-256 and no parsing of its scopes on each request. The tokens stay in this process's
  // memory only, as the requests carrying them do.
  const cache = new Map<string, { key: ApiKeyRow; verified: VerifiedKey; cachedUntil: number }>();
  // Concurrent requests with the same uncached key share one database lookup.
  const lookups = new Map<string, Promise<ApiKeyRow | undefined>>();
  const usableKeys = createUsableKeySet(() => listUsableKeyHashes(db, now()), { minIntervalMs: options.usableKeysRefreshMs ?? USABLE_KEYS_REFRESH_MS });

  const usable = (key: ApiKeyRow, at: number) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt > at);

  /** Expiry is checked on every call, also for a cached key. */
  const checked = (key: ApiKeyRow, verified: VerifiedKey): KeyCheck => {
    const at = now();
    if (!usable(key, at)) return { key: undefined, failure: 'not_usable' };
    options.onUse?.(key.id, at);
    return { key: verified };
  };

  const lookUp = (secretHash: string): Promise<ApiKeyRow | undefined> => {
    let lookup = lookups.get(secretHash);
    if (!lookup) {
      lookup = findApiKeyByHash(db, secretHash).finally(() => lookups.delete(secretHash));
      lookups.set(secretHash, lookup);
    }
    return lookup;
  };

  const verifyCached = (token: string): KeyCheck | undefined => {
    const cached = cache.get(token);
    return cached !== undefined && cached.cachedUntil > now() ? checked(cached.key, cached.verified) : undefined;
  };

  return {
    verifyCached,
    async verify(token) {
      const cached = verifyCached(token);
      if (cached !== undefined) return cached;
      if (!looksLikeApiKey(token)) return { key: undefined, failure: 'malformed' };
      const secretHash = hashApiKey(token);
      if (!usableKeys.has(secretHash)) {
        await usableKeys.refreshed();
        if (!usableKeys.has(secretHash)) return { key: undefined, failure: 'unknown_key' };
      }
      const key = await lookUp(secretHash);
      if (!key) return { key: undefined, failure: 'not_usable' };
      // Shared by every request of this key while cached: frozen, so no request can change another's.
      const verified: VerifiedKey = Object.freeze({ id: key.id, prefix: key.prefix, scopes: Object.freeze(parseScopes(key.scopes)) as Scope[] });
      const at = now();
      if (usable(key, at) && options.cacheTtlMs > 0) {
        cache.delete(token);
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(token, { key, verified, cachedUntil: at + options.cacheTtlMs });
      }
      return checked(key, verified);
    },
    forget(keyId) {
      for (const [token, entry] of cache) if (entry.key.id === keyId) cache.delete(token);
      // The set of usable keys is read again whole, without this one.
      usableKeys.refreshed().catch(() => {});
    },
    warm: () => usableKeys.refreshed(),
  };
}
