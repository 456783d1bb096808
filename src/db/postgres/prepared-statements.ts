/**
 * Which PostgreSQL statements are prepared: every statement with parameters is prepared once per
 * connection under a name and then only bound and executed, so PostgreSQL skips parsing and
 * planning it again on every query (docs/performance.md has the figure). Each connection keeps
 * what it prepared until it closes, so the texts prepared are bounded.
 */
const namesByText = new Map<string, string>();

/** Texts are a bounded set (every value is a parameter); past this many, the rest run unprepared. */
export const MAX_PREPARED_TEXTS = 1000;

/** The name a statement's text is prepared under, the same on every connection; undefined past MAX_PREPARED_TEXTS texts. */
export function statementNameOf(text: string): string | undefined {
  let name = namesByText.get(text);
  if (name === undefined && namesByText.size < MAX_PREPARED_TEXTS) {
    name = `animal_store_${namesByText.size}`;
    namesByText.set(text, name);
  }
  return name;
}
