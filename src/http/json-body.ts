/**
 * The only body parser: JSON in UTF-8, and nothing else (other media types and charsets answer
 * 415); a route scope may also take a JSON-based media type (`acceptJsonAs`), parsed the same
 * way. It refuses, rather than silently changes, what JSON.parse or the database would alter:
 * bytes that are not UTF-8, number literals JSON.parse would round (9007199254740993 becomes
 * …992, 2.9999999999999999 becomes 3), and strings no database can store as sent (a NUL, or
 * half of a UTF-16 surrogate pair).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors.js';

// Strings are matched too, so digits inside a string are skipped rather than mistaken for numbers.
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** Deepest nesting of objects and arrays accepted; no body of this API needs more than a few. */
export const MAX_NESTING = 256;
const SHORT_INTEGER = /^-?\d{1,15}$/;
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
// NUL is refused on purpose: PostgreSQL text cannot hold it, so SQLite and PostgreSQL would differ.
// eslint-disable-next-line no-control-regex
const UNSTORABLE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAYBE_UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export const JSON_MEDIA_TYPE = 'application/json';
/** JSON Merge Patch, RFC 7396. */
export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body media types of a route that takes more than `application/json`, named in its 415 answers. */
    bodyMediaTypes?: readonly string[];
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  acceptJsonAs(app, JSON_MEDIA_TYPE);
}

/** Parses bodies of this JSON-based media type as strictly as application/json, in this scope only. */
export function acceptJsonAs(scope: FastifyInstance, mediaType: string): void {
  scope.addContentTypeParser(mediaType, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseExactJson(decodeUtf8(request, body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

function decodeUtf8(request: FastifyRequest, body: Buffer): string {
  const encoding = request.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not accepted; send the body uncompressed`);
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new AppError('unsupported_media_type', `body must be JSON in UTF-8, not charset=${charset}`);
  }
  try {
    return utf8.decode(body);
  } catch {
    throw new AppError('malformed_json', 'body is not valid UTF-8');
  }
}

export function parseExactJson(text: string): unknown {
  if (text.trim() === '') throw new AppError('malformed_json', 'body is empty; send a JSON object');
  let value: unknown;
  try {
    // Such characters can only arrive as \u escapes (the UTF-8 decoding is strict), so texts
    // without one skip the reviver, which costs a call per value.
    const reviver = MAYBE_UNSTORABLE_ESCAPE.test(text) ? refuseUnstorableStrings : undefined;
    value = secureJson.parse(text, reviver, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof RangeError) throw new AppError('malformed_json', 'body is nested too deeply');
    throw new AppError('malformed_json', `body is not valid JSON: ${(error as Error).message}`);
  }
  for (const [token] of text.matchAll(STRING_OR_NUMBER)) {
    if (!token.startsWith('"') && changesWhenRead(token)) {
      const shown = token.length > 40 ? `${token.slice(0, 40)}…` : token;
      throw new AppError(
        'malformed_json',
        `body holds the number ${shown}, which JSON.parse cannot read exactly (integers are exact up to 2^53-1, 9007199254740991), so it is refused rather than rounded`,
      );
    }
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) {
    throw new AppError('malformed_json', `body gives the field ${JSON.stringify(duplicate)} twice; JSON.parse would keep only the last`);
  }
  return value;
}

/**
 * The first key that appears twice in one object of this (already valid) JSON text. Walks the
 * text with an explicit stack, so deep nesting cannot overflow the call stack; nesting beyond
 * MAX_NESTING is refused here, so no later step that walks the value recursively can overflow either.
 */
function firstDuplicateKey(text: string): string | undefined {
  const objects: ({ keys: Set<string>; expectingKey: boolean } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      let escaped = false;
      while (text[end] !== '"') {
        if (text[end] === '\\') {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      const top = objects.at(-1);
      if (top?.expectingKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectingKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      if (objects.length === MAX_NESTING) throw new AppError('malformed_json', 'body is nested too deeply');
      objects.push(c === '{' ? { keys: new Set(), expectingKey: true } : null);
    } else if (c === '}' || c === ']') objects.pop();
    else if (c === ',') {
      const top = objects.at(-1);
      if (top) top.expectingKey = true;
    }
  }
  return undefined;
}

function refuseUnstorableStrings(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'string' && UNSTORABLE_CHARACTER.test(value)) {
    const field = key === '' ? 'body' : `body.${key}`;
    throw new AppError('validation_failed', `${field} holds a NUL character or an unpaired UTF-16 surrogate, which cannot be stored as sent`, [
      { field, message: 'must not hold a NUL character or an unpaired UTF-16 surrogate' },
    ]);
  }
  return value;
}

/**
 * True when reading this JSON number literal as a JS number yields an integer other than the
 * literal's exact value: a big integer rounded, or a fraction rounded to a whole number.
 * Fractions that stay fractions are left to the schema, which refuses them where an integer is due.
 */
function changesWhenRead(token: string): boolean {
  // The common case, decided without BigInt: up to 15 digits, every integer is exact.
  if (SHORT_INTEGER.test(token)) return false;
  const read = Number(token);
  if (!Number.isInteger(read)) return false;
  const [, sign, whole, fraction = '', exponent = '0'] = NUMBER_PARTS.exec(token)!;
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  // All zeros is exactly zero, however it is written (and 0e999999999 must not become a power of ten).
  if (!/[1-9]/.test(digits)) return read !== 0;
  // The literal is digits × 10^-scale. A finite integer `read` keeps -scale below ~310 here.
  const scale = fraction.length - Number(exponent);
  let exact: bigint;
  if (scale <= 0) exact = BigInt(digits) * 10n ** BigInt(-scale);
  else {
    const cut = digits.length - scale;
    const kept = cut > 0 ? digits.slice(0, cut) : '0';
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (/[1-9]/.test(dropped)) return true; // a fraction, read as a whole number
    exact = BigInt(kept);
  }
  return (sign === '-' ? -exact : exact) !== BigInt(read);
}
