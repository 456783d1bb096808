import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { petNameKey, prefixRange } from '../../src/pets/pet-name-key.js';

describe('petNameKey', () => {
  const sameKey: [string, string][] = [
    ['Ñandú', 'ñandú'],
    ['ÑANDÚ', 'ñandú'],
    ['N\u0303andu\u0301', 'ñandú'], // decomposed accents compose under NFKC
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['Ｒｅｘ', 'rex'], // full-width
    ['ﬁfi', 'fifi'], // ligature
    ['Ελένη', 'ελένη'],
    ['ΕΛΈΝΗ', 'ελένη'],
    ['ΟΔΟΣ', 'οδοσ'], // final sigma folded to σ
    ['Κασσάνδρα', 'κασσάνδρα'],
    ['Ⅻ', 'xii'],
    ['㎒ radio', 'mhz radio'], // NFKC gives letters that only then get case-folded
    ['🐈 Tom', '🐈 tom'],
  ];
  for (const [name, key] of sameKey) {
    it(`${name} > has the key ${key}`, () => assert.equal(petNameKey(name), key));
  }

  it('the key of a key > is the key itself', () => {
    for (const [name] of sameKey) assert.equal(petNameKey(petNameKey(name)), petNameKey(name));
  });

  it('a prefix ending in Σ > is a prefix of the key of a name with σ inside a word', () => {
    assert.ok(petNameKey('Κασσάνδρα').startsWith(petNameKey('ΚΑΣ')));
  });
});

describe('prefixRange', () => {
  it('an ASCII prefix > runs to its last character plus one', () => {
    assert.deepEqual(prefixRange('rex'), { from: 'rex', to: 'rey' });
  });

  it('a prefix ending in an astral character > raises that code point, not a surrogate half', () => {
    assert.deepEqual(prefixRange('a🐈'), { from: 'a🐈', to: 'a🐉' });
  });

  it('a prefix ending just below the surrogates > skips them', () => {
    assert.deepEqual(prefixRange('a\ud7ff'), { from: 'a\ud7ff', to: 'a\ue000' });
  });

  it('a prefix ending in U+10FFFF > carries into the character before it', () => {
    assert.deepEqual(prefixRange('ab\u{10ffff}'), { from: 'ab\u{10ffff}', to: 'ac' });
  });

  it('a prefix of U+10FFFF only > has no upper end', () => {
    assert.deepEqual(prefixRange('\u{10ffff}\u{10ffff}'), { from: '\u{10ffff}\u{10ffff}' });
  });

  it('every string starting with the prefix > lies in the range in code-point order, and the next ones do not', () => {
    const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const { from, to } = prefixRange('ñan');
    for (const inside of ['ñan', 'ñandú', 'ñan\u{10ffff}', 'ñan🐈']) {
      assert.ok(byCodePoint(inside, from) >= 0 && byCodePoint(inside, to!) < 0, inside);
    }
    for (const outside of ['ñam', 'ñao', 'ñb', 'nan', 'ña']) {
      assert.ok(byCodePoint(outside, from) < 0 || byCodePoint(outside, to!) >= 0, outside);
    }
  });
});
