/**
 * The rule for text that is shown to people (a pet's name): it must show something, and it
 * must not be able to reorder what is shown around it. No HTTP here; validation plugs it in as
 * the JSON Schema format `display-text`.
 */

export const DISPLAY_TEXT_FORMAT = 'display-text';

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
