/**
 * Names for PostgreSQL's prepared statements: every statement with parameters is prepared under
 * a name made from its text, once per connection, and then only bound and executed, so
 * PostgreSQL skips parsing and planning it again on every query (docs/performance.md has the
 * figure). The pool wrapper (postgres-deadline.ts) asks here for the name of each query.
 */
import { createHash } from 'node:crypto';

const statementNames = new Map<string, string>();

/** Texts are a bounded set (every value is a parameter); past this many, the rest run unnamed, as before. */
export const MAX_STATEMENT_NAMES = 1000;

/**
 * The name a statement's text is prepared under, the same on every connection and in every
 * process (a hash of the text); undefined once MAX_STATEMENT_NAMES distinct texts have names.
 */
export function statementNameOf(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= MAX_STATEMENT_NAMES) return undefined;
    name = `as_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    statementNames.set(text, name);
  }
  return name;
}
