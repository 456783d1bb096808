/**
 * What an operator should do about a database failure met at start-up or by a CLI command, when
 * there is something clear to do: what the error means, what to check, and which server was tried
 * (the URL with its password hidden). The hint never repeats a password.
 */
import { errorCodeOf } from './error-code.js';
import { dialectOf, redactPassword, sqlitePathOf } from './database-url.js';
import { DEADLINE_CODE } from './postgres/deadline.js';
import { postgresConfigOf } from './postgres/url.js';

/** PostgreSQL's SQLSTATEs: invalid_catalog_name (no such database), invalid_authorization_specification (no such role, or pg_hba refuses), invalid_password, too_many_connections. */
const DATABASE_DOES_NOT_EXIST = '3D000';
const INVALID_AUTHORIZATION = '28000';
const INVALID_PASSWORD = '28P01';
const TOO_MANY_CONNECTIONS = '53300';
/** Node's codes for a server certificate it cannot trust. */
const TLS_TRUST_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export function hintForDatabaseError(error: unknown, databaseUrl: string): string | undefined {
  if (dialectOf(databaseUrl) === 'sqlite') return sqliteHint(error, databaseUrl);
  if (dialectOf(databaseUrl) !== 'postgres') return undefined;
  // Read as the connection reads it: an IPv6 host without its brackets, a socket folder (?host=, or %2F…) as a folder.
  let config: ReturnType<typeof postgresConfigOf>;
  try {
    config = postgresConfigOf(databaseUrl);
  } catch {
    return undefined;
  }
  const code = errorCodeOf(error);
  const host = config.host || 'localhost';
  const port = config.port ?? 5432;
  const socket = host.startsWith('/');
  const server = socket ? `the socket folder ${host}` : `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const user = config.user ?? '';
  const tried = `Tried: ${redactPassword(databaseUrl)} (DATABASE_URL).`;
  const advice = ((): string[] | undefined => {
    if (code === DATABASE_DOES_NOT_EXIST) return createDatabase(config, host, port, user);
    if (code === 'ECONNREFUSED' || (socket && code === 'ENOENT'))
      return [`Nothing accepts connections at ${server}: is PostgreSQL running there, listening on that address and port (listen_addresses, port)?`];
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return [`The host name ${JSON.stringify(host)} cannot be resolved: check its spelling, and this machine's DNS.`];
    if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === DEADLINE_CODE)
      return [`No answer from ${server} in time: a firewall, a wrong address, or a server too busy to accept connections.`];
    if (code === INVALID_AUTHORIZATION)
      return [
        `PostgreSQL does not let the user ${JSON.stringify(user)} in (no such role, or pg_hba.conf refuses it from this address): check the user name and the server's pg_hba.conf.`,
      ];
    if (code === INVALID_PASSWORD)
      return [`PostgreSQL refuses the password of the user ${JSON.stringify(user)}: check it in DATABASE_URL, PGPASSWORD or the pgpass file.`];
    if (code === TOO_MANY_CONNECTIONS)
      return ['PostgreSQL has no connection left (max_connections): lower DATABASE_POOL_MAX or the number of instances, or raise max_connections.'];
    if (code !== undefined && TLS_TRUST_CODES.has(code))
      return [
        `The TLS certificate of ${server} is not trusted: name its authority with sslrootcert=FILE in DATABASE_URL (sslmode=no-verify skips the check, and its protection).`,
      ];
    if (/does not support SSL/.test((error as Error | undefined)?.message ?? ''))
      return [`${server} speaks no TLS: remove sslmode or ssl from DATABASE_URL (or set sslmode=disable), or turn TLS on in the server.`];
    return undefined;
  })();
  return advice && [...advice, tried].join('\n');
}

function createDatabase(config: ReturnType<typeof postgresConfigOf>, host: string, port: number, user: string): string[] {
  const name = config.database ?? '';
  const connection = [`-h ${shellWord(host)}`, `-p ${port}`, ...(user ? [`-U ${shellWord(user)}`] : [])].join(' ');
  return [
    `The PostgreSQL server answers, but has no database ${JSON.stringify(name)}: animal-store creates its tables, not the database.`,
    'Create it once (as a user allowed to), then run this command again:',
    `  createdb ${connection} ${shellWord(name)}`,
    'or',
    `  psql ${connection} -d postgres -c ${shellWord(`create database "${name.replaceAll('"', '""')}"`)}`,
  ];
}

/** A word the shell reads back unchanged. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A SQLite store refused with SQLITE_BUSY before anything ran: services share a store, so one
 * process holds it alone, an import or a restore (db/sqlite/exclusive-open.ts) or another program.
 */
function sqliteHint(error: unknown, databaseUrl: string): string | undefined {
  if (!(errorCodeOf(error) ?? '').startsWith('SQLITE_BUSY')) return undefined;
  return [
    `Another process holds the SQLite store ${sqlitePathOf(databaseUrl)} for itself: an animal-store import or restore running, or another program. Wait for it to end, then run this command again.`,
    `Tried: ${redactPassword(databaseUrl)} (DATABASE_URL).`,
  ].join('\n');
}
