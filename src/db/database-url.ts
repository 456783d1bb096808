/**
 * What a DATABASE_URL names: which engine (or none), the SQLite file, and a form of it that is
 * safe to log (any password hidden).
 */
import { resolve } from 'node:path';

export type DialectName = 'sqlite' | 'postgres';

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const OTHER_URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A bare path names a SQLite file only when it looks like one: a word alone (`nonsense`) is more likely a mistake. */
const SQLITE_PATH = /\/|\.(db|sqlite3?)$/i;

/** The forms DATABASE_URL takes, for the message that refuses another. */
export const DATABASE_URL_FORMS = 'sqlite:PATH, postgres://… (or postgresql://…), or a file path that contains a / or ends in .db, .sqlite or .sqlite3';

/** Tells which dialect a DATABASE_URL selects, or none. */
export function dialectOf(url: string): DialectName | undefined {
  if (POSTGRES_URL.test(url)) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  return OTHER_URL_SCHEME.test(url) || !SQLITE_PATH.test(url) ? undefined : 'sqlite';
}

/** `sqlite:./a.db`, `sqlite:///abs/a.db`, `sqlite::memory:` and a plain file path all name a SQLite file. */
export function sqlitePathOf(url: string): string {
  const path = url.replace(/^sqlite:/, '').replace(/^\/\/(?=\/)/, '');
  return path === ':memory:' ? path : resolve(path);
}

/** Where a DATABASE_URL's data lives, with any password hidden (a SQLite path made absolute): safe to log and show. */
export function locationOf(url: string): string {
  return dialectOf(url) === 'sqlite' ? `sqlite:${sqlitePathOf(url)}` : redactPassword(url);
}

export function redactPassword(url: string): string {
  // The user information ends at the authority's last "@" (a URL reads an "@" left unencoded in a
  // password as part of it), or, in a URL broken by a "/" in the password, at the first "@"; the
  // password is whatever follows its first ":", also without a user name.
  return url.replace(/^([^:/?#]*:\/\/)([^/?#]*|[^@]*)@/, (whole, start: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? whole : `${start}${userinfo.slice(0, colon)}:***@`;
  });
}
