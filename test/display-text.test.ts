import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DISPLAY_TEXT_PATTERN, displayTextProblem, INVISIBLE_LETTERS } from '../src/display-text.js';

describe('displayTextProblem', () => {
  const accepted: [string, string][] = [
    ['a plain name', 'Rex'],
    ['one letter', 'x'],
    ['one digit', '7'],
    ['one punctuation mark', '?'],
    ['one emoji (a symbol)', '🐈'],
    ['an emoji sequence with a zero-width joiner', '👩‍🚀'],
    ['accented and non-Latin letters', 'Ñandú Ελένη 小白 مرحبا'],
    ['a combining accent after its letter', 'Zoe\u0301'],
    ['surrounding white space', '  Rex \t'],
    ['a zero-width space beside a visible letter', 'Re\u200Bx'],
    ['right-to-left text with an implicit mark (U+200F)', 'שלום\u200F'],
    ['a left-to-right mark (U+200E) and an Arabic letter mark (U+061C)', '\u200ERex\u061C'],
    ['a private-use character', '\uE000'],
    ['digits only, written as a string', '9007199254740993'],
  ];
  for (const [scenario, text] of accepted) {
    it(`when the text is ${scenario} > finds no problem`, () => {
      assert.equal(displayTextProblem(text), undefined);
    });
  }

  const invisible: [string, string][] = [
    ['empty', ''],
    ['only spaces and tabs', ' \t '],
    ['only a no-break space and an ideographic space', '\u00A0\u3000'],
    ['only zero-width spaces (U+200B)', '\u200B\u200B'],
    ['only a right-to-left mark (U+200F)', '\u200F'],
    ['only zero-width joiners and non-joiners', '\u200D\u200C'],
    ['only a byte order mark (U+FEFF)', '\uFEFF'],
    ['only a word joiner and a soft hyphen', '\u2060\u00AD'],
    ['only Hangul fillers (letters that are default-ignorable)', '\u3164\u115F\uFFA0'],
    ['only a combining mark', '\u0301'],
    ['only a variation selector', '\uFE0F'],
    ['only control characters', '\u0007\u001B'],
    ['only a line and a paragraph separator', '\u2028\u2029'],
    ['only tag characters', '\u{E0041}\u{E0042}'],
    ['only an unassigned code point', '\u{50000}'],
  ];
  for (const [scenario, text] of invisible) {
    it(`when the text is ${scenario} > says it needs a visible character`, () => {
      assert.match(displayTextProblem(text) ?? '', /^must contain a visible character/);
    });
  }

  const bidi: [string, string, string][] = [
    ['starts with a right-to-left override', '\u202Egnp.exe', 'U+202E'],
    ['hides a left-to-right embedding inside', 'Re\u202Ax', 'U+202A'],
    ['holds a pop directional formatting', 'Rex\u202C', 'U+202C'],
    ['holds a right-to-left isolate', 'Rex\u2067', 'U+2067'],
    ['holds a pop directional isolate', '\u2069Rex', 'U+2069'],
    ['holds a first strong isolate', 'R\u2068ex', 'U+2068'],
    ['is only a bidi override', '\u202D', 'U+202D'],
  ];
  for (const [scenario, text, codePoint] of bidi) {
    it(`when the text ${scenario} > names the bidirectional control`, () => {
      const problem = displayTextProblem(text) ?? '';
      assert.match(problem, /^must not contain the bidirectional control/);
      assert.ok(problem.includes(codePoint), problem);
    });
  }
});

describe('DISPLAY_TEXT_PATTERN, the rule as the schemas carry it', () => {
  const pattern = new RegExp(DISPLAY_TEXT_PATTERN, 'u');
  const accepts = (text: string) => pattern.test(text);
  const fine = (text: string) => displayTextProblem(text) === undefined;

  it('agrees with displayTextProblem on every code point: alone, after a visible letter, before one, and after an invisible one', () => {
    const disagreements: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      for (const text of [character, `a${character}`, `${character}a`, `\u200B${character}`, `\u3164${character}\u3164`]) {
        if (accepts(text) !== fine(text)) disagreements.push(`U+${codePoint.toString(16).toUpperCase()} in ${JSON.stringify(text)}`);
      }
    }
    assert.deepEqual(disagreements.slice(0, 10), []);
  });

  it('lists exactly the visible-category letters that are Default_Ignorable_Code_Point (derived from the property)', () => {
    const derived: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      if (/[\p{L}\p{N}\p{P}\p{S}\p{Co}]/u.test(character) && /\p{Default_Ignorable_Code_Point}/u.test(character)) derived.push(character);
    }
    assert.deepEqual(derived, INVISIBLE_LETTERS);
  });

  it('takes linear time on a long name of invisible characters ending in a bidi control', () => {
    // A quadratic pattern would take minutes here; this one answers at once (no timing asserted, only that it ends).
    assert.equal(accepts(`${'\u200B'.repeat(1_000_000)}\u202E`), false);
    assert.equal(accepts(`${'\u3164 '.repeat(500_000)}x`), true);
  });
});
