/**
 * The only body parser: JSON, and nothing else (other media types answer 415). JSON.parse
 * rounds integers beyond 2^53−1 without a word (9007199254740993 becomes …992), so the raw text
 * is scanned first and such a literal is refused instead of being silently changed.
 */
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors.js';

// Strings are matched too, so digits inside a string are skipped rather than mistaken for numbers.
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseExactJson(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

export function parseExactJson(text: string): unknown {
  if (text.trim() === '') throw new AppError('malformed_json', 'body is empty; send a JSON object');
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new AppError('malformed_json', `body is not valid JSON: ${(error as Error).message}`);
  }
  for (const [token] of text.matchAll(STRING_OR_NUMBER)) {
    if (!token.startsWith('"') && losesPrecision(token)) {
      throw new AppError(
        'malformed_json',
        `body holds the number ${token}, which JSON.parse cannot read exactly (integers are exact up to 2^53-1, 9007199254740991), so it is refused rather than rounded`,
      );
    }
  }
  return value;
}

/** True when reading this JSON number literal as a JS number would change an integer's value. */
function losesPrecision(token: string): boolean {
  const number = Number(token);
  if (/^-?\d+$/.test(token)) return BigInt(token) !== BigInt(number);
  // 9.007199254740993e15 and the like: an integer written in another form, beyond exact range.
  return Number.isInteger(number) && !Number.isSafeInteger(number);
}
