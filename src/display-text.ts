/**
 * The rule for text that is shown to people (a pet's name): it must show something, and it
 * must not be able to reorder what is shown around it. No HTTP here: the schemas carry the rule as
 * the JSON Schema `pattern` DISPLAY_TEXT_PATTERN (so tools that read openapi.json know it), and
 * displayTextProblem says in words what is wrong; a test checks the two agree on every code point.
 */

/**
 * A visible character: a letter, number, punctuation mark or symbol (general categories
 * L, N, P, S) or a private-use character (Co), that is not Default_Ignorable_Code_Point (which
 * takes out the Hangul fillers, letters that render as nothing). White space (Z), controls (Cc),
 * format characters such as U+200B or U+200F (Cf), lone combining marks (M), unassigned code
 * points (Cn) and surrogates (Cs) show nothing on their own.
 */
const VISIBLE = /(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{P}\p{S}\p{Co}]/u;

/**
 * The explicit bidirectional embeddings and overrides (U+202A–U+202E) and isolates
 * (U+2066–U+2069): they reorder the text that follows them, even outside the field, as in the
 * "Trojan Source" attacks. The implicit marks (U+200E, U+200F, U+061C) only nudge neighbouring
 * characters and stay allowed.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * The letters among the visible categories that are Default_Ignorable_Code_Point: the Hangul
 * fillers U+115F, U+1160, U+3164 and U+FFA0. Written out because neither JSON Schema patterns
 * (ECMA-262) as other tools read them nor Java know \p{Default_Ignorable_Code_Point}; a test
 * derives this list from that property over every code point, so a new Unicode version that
 * adds one fails it.
 */
export const INVISIBLE_LETTERS = ['\u115F', '\u1160', '\u3164', '\uFFA0'];
const BIDI_CONTROL_RANGES = '\\u202A-\\u202E\\u2066-\\u2069';
const VISIBLE_CATEGORIES = '\\p{L}\\p{N}\\p{P}\\p{S}\\p{Co}';
const INVISIBLE_LETTER_ESCAPES = INVISIBLE_LETTERS.map((letter) => `\\u${letter.codePointAt(0)!.toString(16).toUpperCase()}`).join('');

/**
 * The display-text rule as one ECMA-262 pattern (Unicode mode, as JSON Schema and Ajv read it):
 * characters that show nothing (and are no bidi control), then a visible character, then
 * anything but a bidi control. The first part and the visible character are disjoint, so the
 * match never backtracks more than once per character: linear, even on a long hostile name.
 */
export const DISPLAY_TEXT_PATTERN =
  `^(?:[^${VISIBLE_CATEGORIES}${BIDI_CONTROL_RANGES}]|[${INVISIBLE_LETTER_ESCAPES}])*` +
  `(?![${INVISIBLE_LETTER_ESCAPES}])[${VISIBLE_CATEGORIES}]` +
  `[^${BIDI_CONTROL_RANGES}]*$`;

export const DISPLAY_TEXT_RULE =
  'at least one visible character: a code point of Unicode general category L, N, P, S or Co (a letter, number, punctuation mark, symbol or private-use character) that is not Default_Ignorable_Code_Point; white space, controls, format characters such as U+200B or U+200F and lone combining marks show nothing on their own. It must not contain a bidirectional embedding, override or isolate control (U+202A–U+202E, U+2066–U+2069)';

/** What is wrong with this text as display text, phrased to follow the field's name; undefined when it is fine. */
export function displayTextProblem(text: string): string | undefined {
  const bidi = BIDI_CONTROL.exec(text);
  if (bidi) {
    const codePoint = `U+${bidi[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return `must not contain the bidirectional control ${codePoint} (U+202A–U+202E and U+2066–U+2069 are refused: they reorder how the text around them is shown)`;
  }
  if (!VISIBLE.test(text)) {
    return 'must contain a visible character (a letter, digit, punctuation mark or symbol); it holds only invisible, formatting or combining characters';
  }
  return undefined;
}
