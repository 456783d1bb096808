import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CASE_FOLDING_TABLE } from '../../src/pets/case-folding-table.js';
import { decodeCaseFolding } from '../../src/pets/case-folding.js';
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
    // Full case folding: the capital sharp s, ß, SS, ss and the long s with s are one.
    ['ẞtrasse', 'sstrasse'],
    ['ßtrasse', 'sstrasse'],
    ['SStrasse', 'sstrasse'],
    ['sStrasse', 'sstrasse'],
    ['ſstrasse', 'sstrasse'],
    ['ΣΑΣ', 'σασ'],
    // Cherokee folds to its capitals (lower-casing went the other way).
    ['ꮳꮃꭹ', 'ᏣᎳᎩ'],
    ['Ꮳꮃꭹ', 'ᏣᎳᎩ'],
    // ᾳ folds to two letters.
    ['ᾼ', 'αι'],
  ];
  for (const [name, key] of sameKey) {
    it(`${name} > has the key ${key}`, () => assert.equal(petNameKey(name), key));
  }

  it('the key of a key > is the key itself', () => {
    for (const [name] of sameKey) assert.equal(petNameKey(petNameKey(name)), petNameKey(name));
  });

  it('İzmir > folds to i̇zmir, with a combining dot above, so izmir is not a prefix of its key', () => {
    assert.equal(petNameKey('İzmir'), 'i\u0307zmir');
    assert.ok(!petNameKey('İzmir').startsWith(petNameKey('izmir')));
    assert.equal(petNameKey('İZMİR'), petNameKey('i̇zmi̇r'));
  });

  it('the dotless ı > stays itself (only Turkic folding, left out, would make I and ı one)', () => {
    assert.equal(petNameKey('ısık'), 'ısık');
    assert.notEqual(petNameKey('ısık'), petNameKey('isik'));
    assert.equal(petNameKey('Isik'), 'isik');
  });

  it('any text > has a key that is its own key, is in NFKC, and is the key of its NFD and NFKC forms', () => {
    // Any code point (lone surrogates included), and the characters whose folding is tricky.
    const anyCharacter = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));
    const trickyCharacter = fc.constantFrom(...'ẞßSsſİıIiΣσςᾼﬀﬁΐǰ\u0307\u0345\u0301\u0308');
    const text = fc.oneof(fc.string({ unit: anyCharacter, maxLength: 30 }), fc.string({ unit: trickyCharacter, maxLength: 12 }));
    fc.assert(
      fc.property(text, (name) => {
        const key = petNameKey(name);
        assert.equal(petNameKey(key), key);
        assert.equal(key.normalize('NFKC'), key);
        assert.equal(petNameKey(name.normalize('NFD')), key);
        assert.equal(petNameKey(name.normalize('NFKC')), key);
      }),
      { seed: 15, numRuns: 500 },
    );
  });

  it('every character that folds, alone or before a combining mark > has a key that is its own key', () => {
    for (const codePoint of decodeCaseFolding(CASE_FOLDING_TABLE).keys()) {
      for (const mark of ['', '\u0301', '\u0307', '\u0308', '\u0342', '\u0345']) {
        const key = petNameKey(String.fromCodePoint(codePoint) + mark);
        assert.equal(petNameKey(key), key, `U+${codePoint.toString(16)}${mark}`);
      }
    }
  });

  it('a hostile 1 MB name of characters that grow most under NFKC and folding > gets the key of its parts, one after the other', () => {
    // The service refuses names over 200 characters before computing any key (pets.find tests);
    // this is the key's own bound. U+FDFA is 18 characters under NFKC, ﬃ is 3, ΐ folds to 3 and
    // ẞ to 2: each step is one pass over the text (one regular expression for the folding), none
    // loops back, so the key of the repeated text is the repeated key.
    const unit = '\ufdfaﬃΐẞ';
    const key = petNameKey(unit.repeat(1 << 18));
    assert.equal(key, petNameKey(unit).repeat(1 << 18));
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
