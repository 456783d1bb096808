import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayTextProblem } from '../src/display-text.js';

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
