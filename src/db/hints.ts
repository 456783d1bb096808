/**
 * What an operator should do about a database failure met at start-up or by a CLI command,
 * when there is something clear to do. The hint never repeats a password.
 */
import { errorCodeOf } from './error-code.js';
import { postgresConfigOf } from './postgres/url.js';

/** PostgreSQL's SQLSTATE for "database does not exist" (invalid_catalog_name). */
const DATABASE_DOES_NOT_EXIST = '3D000';

export function hintForDatabaseError(error: unknown, databaseUrl: string): string | undefined {
  if (errorCodeOf(error) !== DATABASE_DOES_NOT_EXIST) return undefined;
  // Read as the connection reads it: an IPv6 host without its brackets, a socket folder (?host=, or %2F…) as a folder.
  let config: ReturnType<typeof postgresConfigOf>;
  try {
    config = postgresConfigOf(databaseUrl);
  } catch {
    return undefined;
  }
  const name = config.database ?? '';
  const user = config.user ?? '';
  const connection = [`-h ${shellWord(config.host || 'localhost')}`, `-p ${config.port ?? 5432}`, ...(user ? [`-U ${shellWord(user)}`] : [])].join(' ');
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
