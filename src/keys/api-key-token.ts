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
export function displayPrefixOf(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

export function looksLikeApiKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

/** `ask_` (its `_` perhaps percent-encoded) and more key characters than a display prefix has. */
const KEY_IN_TEXT = /ask(?:_|%5[Ff])([A-Za-z0-9_-]{8})[A-Za-z0-9_%-]+/g;

/**
 * Hides anything shaped like a key in text bound for the logs (a URL where a key was pasted by
 * mistake, say), keeping only its display prefix so an operator can tell which key to revoke.
 */
export function redactApiKeys(text: string): string {
  // Almost no text holds a key: a search for its start is cheaper than the pattern (every request's URL comes here).
  if (!text.includes('ask')) return text;
  return text.replace(KEY_IN_TEXT, (_match, prefix: string) => `ask_${prefix}[redacted]`);
}
