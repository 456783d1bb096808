/**
 * Which PostgreSQL statements are prepared: every statement with parameters is prepared once per
 * connection (Postgres.js names it) and then only bound and executed, so PostgreSQL skips parsing
 * and planning it again on every query (docs/performance.md has the figure). Each connection
 * keeps what it prepared until it closes, so the texts prepared are bounded.
 */
const preparedTexts = new Set<string>();

/** Texts are a bounded set (every value is a parameter); past this many, the rest run unprepared. */
export const MAX_PREPARED_TEXTS = 1000;

/** Whether a statement's text is prepared: the first MAX_PREPARED_TEXTS distinct texts are, for good. */
export function isPrepared(text: string): boolean {
  if (preparedTexts.has(text)) return true;
  if (preparedTexts.size >= MAX_PREPARED_TEXTS) return false;
  preparedTexts.add(text);
  return true;
}
