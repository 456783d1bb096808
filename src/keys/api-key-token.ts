/**
 * What an API key looks like: `ask_` followed by 256 random bits in base64url. Only the
 * SHA-256 of the whole key is stored; the first characters are kept readable as its prefix.
 */
import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'ask_';
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;
/** The exact shape of a key this service issues; anything else is rejected before any lookup. */
const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{43}$/;

export interface GeneratedApiKey {
  key: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: displayPrefixOf(key), secretHash: hashApiKey(key) };
}

// A fast hash is right here: the key has 256 bits of entropy, so there is nothing to brute-force.
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The part of a key shown in listings and logs, so an operator can tell which key a line is about. */
function displayPrefixOf(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

export function looksLikeApiKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}
