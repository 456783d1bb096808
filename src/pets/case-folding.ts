/**
 * Unicode full case folding (CaseFolding.txt, status C and F), which JavaScript does not have:
 * `toLowerCase` is not folding (`ẞ` lower-cases to `ß`, which folds to `ss`; Cherokee folds to
 * upper case). The mappings come from the committed table (case-folding-table.ts, generated from
 * Unicode's data and checked against it by a test); Turkic mappings (status T) are left out, so
 * the fold is the same whatever the language.
 */
import { CASE_FOLDING_TABLE } from './case-folding-table.js';

/** Decodes the table's compact form (scripts/case-folding-source.ts says how it is written). */
export function decodeCaseFolding(table: string): Map<number, string> {
  const folding = new Map<number, string>();
  for (const token of table.split(' ')) {
    const match = /^([0-9a-f]+)(?:-([0-9a-f]+)(?:\/(\d+))?)?:([0-9a-f.]+)$/.exec(token);
    if (!match) throw new Error(`case-folding table: malformed entry ${JSON.stringify(token)}`);
    const from = parseInt(match[1]!, 16);
    const to = match[4]!.split('.').map((hex) => parseInt(hex, 16));
    if (to.length > 1) {
      folding.set(from, String.fromCodePoint(...to));
      continue;
    }
    const last = match[2] === undefined ? from : parseInt(match[2], 16);
    const step = match[3] === undefined ? 1 : Number(match[3]);
    for (let cp = from; cp <= last; cp += step) folding.set(cp, String.fromCodePoint(to[0]! + cp - from));
  }
  return folding;
}

interface Folding {
  /** Character → what it folds to. */
  map: Map<string, string>;
  /** Every character that folds: replacing through one regular expression is linear and fast. */
  pattern: RegExp;
}

let folding: Folding | undefined;

function loadFolding(): Folding {
  const byCodePoint = decodeCaseFolding(CASE_FOLDING_TABLE);
  const map = new Map([...byCodePoint].map(([from, to]) => [String.fromCodePoint(from), to]));
  const escape = (codePoint: number) => `\\u{${codePoint.toString(16)}}`;
  return { map, pattern: new RegExp(`[${[...byCodePoint.keys()].map(escape).join('')}]`, 'gu') };
}

/** `text` with every character replaced by its full case folding (characters without one stay). */
export function fullCaseFold(text: string): string {
  folding ??= loadFolding();
  const { map } = folding;
  return text.replace(folding.pattern, (char) => map.get(char)!);
}
