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

/**
 * `ask_` (in any case) and more key characters than a display prefix has: what is left of a key
 * once its text is decoded. Any part of a key beyond its display prefix is a secret.
 */
const KEY_IN_TEXT = /ask_([A-Za-z0-9_-]{8})[A-Za-z0-9_-]+/gi;
/** Percent-encodings deeper than this are not undone; the text is then logged as `[redacted]` whole. */
const MAX_DECODINGS = 4;

/**
 * Undoes one round of URL encoding, as far as key characters go: `%XX` of an ASCII character,
 * and `+` (a space in a form). Other escapes stay as written: none of them can make a key
 * character. Never throws, unlike decodeURIComponent on a malformed escape.
 */
function decodeOnce(text: string): string {
  return text.replace(/%([0-7][0-9A-Fa-f])|\+/g, (match, hex: string | undefined) => (hex === undefined ? ' ' : String.fromCharCode(parseInt(hex, 16))));
}

/**
 * Hides anything shaped like a key in text bound for the logs (a URL where a key was pasted by
 * mistake, a request id, an error message that quotes either), keeping only its display prefix
 * so an operator can tell which key to revoke. Keys are looked for after decoding percent-
 * encoding (`%61sk_…`, `ask%5F…`), also repeated (`%2561sk_…`), whatever the case of `ask_`.
 * Text that held a key is logged decoded, with the key redacted; text that held none is logged
 * as it came.
 */
export function redactApiKeys(text: string): string {
  // Almost no text holds a key or an escape: a search for either is cheaper than the patterns
  // (every logged string comes here). A `+` alone needs no decoding: a space is no key character.
  const escaped = text.includes('%');
  if (!escaped && !/ask/i.test(text)) return text;
  // Decoded all the way first: a key matched in the text as written could stop at an escape and
  // leave the rest of the key after it in clear.
  let decoded = text;
  for (let round = 0; escaped; round++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    if (round === MAX_DECODINGS) return '[redacted]';
    decoded = next;
  }
  KEY_IN_TEXT.lastIndex = 0;
  if (!KEY_IN_TEXT.test(decoded)) return text;
  return decoded.replace(KEY_IN_TEXT, (_match, prefix: string) => `ask_${prefix}[redacted]`);
}

/** Whether text holds a key, or enough of one to be worth hiding (see redactApiKeys). */
export function holdsApiKey(text: string): boolean {
  return redactApiKeys(text) !== text;
}
