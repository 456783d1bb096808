/**
 * The search key of a pet's name, and the range of keys a name prefix covers. The key is what
 * `GET /v1/pets?name=` compares, so it is computed here in JavaScript, the same way for every
 * database, and stored beside the name: SQLite and PostgreSQL never apply case rules of their own.
 *
 * The migration that added the column keeps its own frozen copy of `petNameKey`: if this one ever
 * changes, a new migration must recompute the stored keys.
 */

/**
 * NFKC (full-width `Ｒｅｘ` is `Rex`, the ligature `ﬁ` is `fi`), then a locale-independent case fold:
 * upper case first, so `ß` becomes `SS` and matches `ss`; then lower case; final sigma `ς` folded to
 * `σ`, so a prefix ending in Σ (lower-cased as a final ς) still matches inside a word. NFKC again,
 * since case mapping may leave text unnormalised; the key of a key is the key itself.
 */
export function petNameKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().replaceAll('ς', 'σ').normalize('NFKC');
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
