/**
 * Secrets in text bound for the logs: an API key (`ask_…`) pasted where it does not belong (a URL,
 * a request id, an error message that quotes either), and a webhook endpoint's signing secret
 * (`whsec_…`) wherever a text quotes one. Every string logged passes here (app.ts's log formatter
 * and error serializer, access-log-line.ts).
 */

/**
 * `ask_` (in any case) and more key characters than a display prefix has: what is left of a key
 * once its text is decoded. Any part of a key beyond its display prefix is a secret.
 */
const KEY_IN_TEXT = /ask_([A-Za-z0-9_-]{8})[A-Za-z0-9_-]+/gi;
/**
 * `whsec_` and what follows in base64 or base64url: no part of a signing secret is shown. Spaces
 * count as part of it, since decoding makes one of every `+` (a space in a form): a word after a
 * secret may go with it, none of the secret stays.
 */
const WEBHOOK_SECRET_IN_TEXT = /whsec_[A-Za-z0-9+/=_ -]*/gi;
/** Percent-encodings deeper than this are not undone; the text is then logged as `[redacted]` whole. */
const MAX_DECODINGS = 4;

/**
 * Undoes one round of URL encoding, as far as secret characters go: `%XX` of an ASCII character,
 * and `+` (a space in a form). Other escapes stay as written: none of them can make a secret
 * character. Never throws, unlike decodeURIComponent on a malformed escape.
 */
function decodeOnce(text: string): string {
  return text.replace(/%([0-7][0-9A-Fa-f])|\+/g, (match, hex: string | undefined) => (hex === undefined ? ' ' : String.fromCharCode(parseInt(hex, 16))));
}

/**
 * Hides anything shaped like an API key or a webhook secret in text bound for the logs. An API key
 * keeps its display prefix so an operator can tell which key to revoke; a webhook secret keeps
 * `whsec_` only. Secrets are looked for after decoding percent-encoding (`%61sk_…`, `ask%5F…`),
 * also repeated (`%2561sk_…`), whatever the case. Text that held a secret is logged decoded, with
 * the secret redacted; text that held none is logged as it came.
 */
export function redactSecrets(text: string): string {
  // Almost no text holds a secret or an escape: a search for either is cheaper than the patterns
  // (every logged string comes here). A `+` alone needs no decoding: a space is no key character.
  const escaped = text.includes('%');
  if (!escaped && !/ask|whsec/i.test(text)) return text;
  // Decoded all the way first: a secret matched in the text as written could stop at an escape
  // and leave the rest of it after the escape in clear.
  let decoded = text;
  for (let round = 0; escaped; round++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    if (round === MAX_DECODINGS) return '[redacted]';
    decoded = next;
  }
  KEY_IN_TEXT.lastIndex = 0;
  WEBHOOK_SECRET_IN_TEXT.lastIndex = 0;
  if (!KEY_IN_TEXT.test(decoded) && !WEBHOOK_SECRET_IN_TEXT.test(decoded)) return text;
  return decoded.replace(KEY_IN_TEXT, (_match, prefix: string) => `ask_${prefix}[redacted]`).replace(WEBHOOK_SECRET_IN_TEXT, 'whsec_[redacted]');
}

/** Whether text holds a secret, or enough of one to be worth hiding (see redactSecrets). */
export function holdsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}
