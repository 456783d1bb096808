/**
 * What an operator should do about a database failure met at start-up or by a CLI command,
 * when there is something clear to do. The hint never repeats a password.
 */
import { errorCodeOf } from './error-code.js';

/** PostgreSQL's SQLSTATE for "database does not exist" (invalid_catalog_name). */
const DATABASE_DOES_NOT_EXIST = '3D000';

export function hintForDatabaseError(error: unknown, databaseUrl: string): string | undefined {
  if (errorCodeOf(error) !== DATABASE_DOES_NOT_EXIST) return undefined;
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return undefined;
  }
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const user = decodeURIComponent(url.username);
  const connection = [`-h ${shellWord(url.hostname || 'localhost')}`, `-p ${url.port || '5432'}`, ...(user ? [`-U ${shellWord(user)}`] : [])].join(' ');
  return [
    `The PostgreSQL server answers, but has no database ${JSON.stringify(name)}: animal-store creates its tables, not the database.`,
    'Create it once (as a user allowed to), then run this command again:',
    `  createdb ${connection} ${shellWord(name)}`,
    'or',
    `  psql ${connection} -d postgres -c ${shellWord(`create database "${name.replaceAll('"', '""')}"`)}`,
  ].join('\n');
}

/** A word the shell reads back unchanged. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
