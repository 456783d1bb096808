/**
 * The search key of a pet's name, and the range of keys a name prefix covers. The key is what
 * `GET /v1/pets?name=` compares, so it is computed here in JavaScript, the same way for every
 * database, and stored beside the name: SQLite and PostgreSQL never apply case rules of their own.
 *
 * The migration that last recomputed the stored keys (2026-11-27T00-full-case-folding) keeps its
 * own frozen copy of `petNameKey`: if this one ever changes (a new Unicode version's table
 * included), a new migration must recompute them.
 */
import { fullCaseFold } from './case-folding.js';

/**
 * NFKC (full-width `Ｒｅｘ` is `Rex`, the ligature `ﬁ` is `fi`), then Unicode's full case folding
 * (case-folding.ts), then NFKC again, since folding may leave text unnormalised: the key of a key
 * is the key itself. Full folding makes `ẞ`, `ß`, `ss`, `SS` and `ſs` one (`ss`), and every
 * sigma `σ`, so a prefix ending in Σ matches inside a word. What it does not make equal: letters
 * that differ by more than case, such as `İ` (folded to `i` and a combining dot above, as in
 * `i̇zmir`), which `izmir` does not find, like any other accent (`é` is not `e`).
 */
export function petNameKey(name: string): string {
  return fullCaseFold(name.normalize('NFKC')).normalize('NFKC');
}

/** Keys from `from` (inclusive) to `to` (exclusive; none when no string is above them all). */
export interface KeyRange {
  from: string;
  to?: string;
}

const MAX_CODE_POINT = 0x10ffff;

/**
 * The keys starting with `prefix`, as a range in code-point order: from the prefix itself up to
 * the first string after every string that starts with it (its last code point plus one). Both
 * databases compare these keys in code-point order (SQLite's binary collation on UTF-8, and
 * PostgreSQL's "C" collation), so an index on the key answers the range.
 */
export function prefixRange(prefix: string): KeyRange {
  const codePoints = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (codePoints.length > 0) {
    const last = codePoints.pop()!;
    if (last < MAX_CODE_POINT) {
      // Surrogate code points never appear in stored keys (names holding them are refused).
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return { from: prefix, to: String.fromCodePoint(...codePoints, next) };
    }
  }
  return { from: prefix };
}
