/**
 * The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): its value is a
 * structured-field string (`"…"`); a bare token is accepted too, since many clients send one.
 * Pure: no Fastify, no database.
 */

/** Longest key accepted, in characters (after unescaping a quoted one). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const BARE = /^[\x21-\x7e]+$/;
// An sf-string: printable ASCII (space included); `"` and `\` only escaped by a backslash.
const QUOTED = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

export type ParsedIdempotencyKey = { key: string } | { problem: string };

/**
 * The key of a header value, or why it is not one. Node joins repeated headers with `, `, which
 * no valid key contains unquoted and no sf-string survives, so sending two keys is refused too.
 */
export function parseIdempotencyKey(value: string): ParsedIdempotencyKey {
  let key: string;
  if (value.startsWith('"')) {
    const match = QUOTED.exec(value);
    if (!match) return { problem: 'Idempotency-Key must be one structured-field string ("…") of printable ASCII, or a bare token' };
    key = match[1]!.replace(/\\(["\\])/g, '$1');
  } else {
    if (!BARE.test(value)) return { problem: 'Idempotency-Key must be a structured-field string ("…") or a token of visible ASCII characters without spaces' };
    key = value;
  }
  if (key.length === 0) return { problem: 'Idempotency-Key must not be empty' };
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return { problem: `Idempotency-Key must have at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (got ${key.length})` };
  }
  return { key };
}
