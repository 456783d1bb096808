/**
 * Entity tags and the If-Match request header (RFC 9110 §8.8.3 and §13.1.1), as pure functions:
 * routes format the ETag they answer with `strongEtag` and read a client's condition with
 * `parseIfMatch`; what a tag means stays with the resource that made it.
 */
import { AppError } from '../errors.js';

/**
 * `*` (any current representation), or the strong tags listed, without their quotes, and how many
 * weak tags were listed besides (they never match, but a refusal should say why).
 */
export type IfMatch = { any: true } | { any: false; strongTags: string[]; weakTags: number };

/** More tags than any real client sends; the bound keeps the condition cheap to check. */
export const MAX_IF_MATCH_TAGS = 100;

const OPAQUE_TAG = /^[\x21\x23-\x7E]*$/;

/** The header value of a strong ETag with this opaque content. */
export function strongEtag(opaque: string): string {
  if (!OPAQUE_TAG.test(opaque)) throw new TypeError(`an entity tag cannot hold ${JSON.stringify(opaque)}`);
  return `"${opaque}"`;
}

/**
 * Reads an If-Match header (several If-Match lines arrive joined by commas). Weak tags are
 * valid but dropped: If-Match compares strongly, so they never match. Undefined when absent.
 */
export function parseIfMatch(value: string | undefined): IfMatch | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '*') return { any: true };
  const strongTags: string[] = [];
  let tags = 0;
  let weakTags = 0;
  // A scan that only moves forward: the header is client input, so no backtracking pattern reads it.
  let i = 0;
  const skipBlanks = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  while (i < value.length) {
    skipBlanks();
    if (i < value.length && value[i] !== ',') {
      const start = i;
      const weak = value.startsWith('W/', i);
      if (weak) i += 2;
      if (value[i] !== '"') throw notAList(start);
      const end = value.indexOf('"', i + 1);
      if (end === -1 || !isEtagText(value.slice(i + 1, end))) throw notAList(start);
      if (++tags > MAX_IF_MATCH_TAGS) throw malformed(`lists more than ${MAX_IF_MATCH_TAGS} entity tags`);
      if (weak) weakTags++;
      else strongTags.push(value.slice(i + 1, end));
      i = end + 1;
      skipBlanks();
    }
    if (i < value.length && value[i++] !== ',') throw notAList(i - 1);
  }
  if (tags === 0)
    throw malformed(value.trim() === '' ? 'is empty; send an ETag exactly as received, quotes included, or leave the header out' : 'lists no entity tag');
  return { any: false, strongTags, weakTags };
}

/** etagc of RFC 9110: visible ASCII but the double quote, and obs-text (a header string holds bytes as Latin-1). */
function isEtagText(text: string): boolean {
  return /^[\x21\x23-\x7E\x80-\xFF]*$/.test(text);
}

function notAList(position: number): AppError {
  return malformed(
    `must be "*" or a comma-separated list of entity tags, each the ETag exactly as received, quotes included; it goes wrong at character ${position + 1}`,
  );
}

function malformed(problem: string): AppError {
  const message = `header.If-Match ${problem}`;
  return new AppError('validation_failed', message, [{ field: 'header.If-Match', message }]);
}
