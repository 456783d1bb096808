/**
 * A PostgreSQL DATABASE_URL as pg's client configuration. pg-connection-string reads the URL
 * (user, password, host, port, database, the `host` parameter for a Unix socket, `options`,
 * `application_name`); the TLS parameters are read here, so that their meanings are the ones
 * docs/operations.md lists whatever pg-connection-string's next version decides (its current one
 * prints a deprecation warning for three of the modes), and `sslrootcert=system` means the
 * system's authorities as it does for libpq. Any other parameter is refused by name: pg would
 * ignore it silently.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { ClientConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import pgpass from 'pgpass';

const PASSED_ON = new Set(['host', 'options', 'application_name']);
const TLS_FILES = { sslrootcert: 'ca', sslcert: 'cert', sslkey: 'key' } as const;
/** pg's sslmodes: every one but disable and no-verify asks for TLS with the certificate checked. */
const VERIFYING_MODES = new Set(['allow', 'prefer', 'require', 'verify-ca', 'verify-full']);
const TLS_PARAMETERS = ['ssl', 'sslmode', ...Object.keys(TLS_FILES)];

/** Reads a PostgreSQL DATABASE_URL; throws, naming the parameter, on one the service does not take. */
export function postgresConfigOf(url: string): ClientConfig {
  const question = url.indexOf('?');
  const base = question < 0 ? url : url.slice(0, question);
  const parameters = new URLSearchParams(question < 0 ? '' : url.slice(question + 1));
  for (const name of parameters.keys()) {
    if (!PASSED_ON.has(name) && !TLS_PARAMETERS.includes(name)) {
      // A "?" left unencoded in the password starts the query there: what follows is no name to repeat.
      const supported = `supported: ${[...PASSED_ON, ...TLS_PARAMETERS].join(', ')}`;
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`DATABASE_URL parameter ${JSON.stringify(name)} is not supported (${supported})`);
      throw new Error(`DATABASE_URL has a parameter that is not supported (${supported}; a ? in the user name or password must be written %3F)`);
    }
  }
  const ssl = tlsOf(parameters);
  // The parameters passed on are set as read here, not written into a URL again for
  // pg-connection-string: a space or a lone % elsewhere in the URL (a password) makes it encode the
  // whole text once more, and then a %2F or %3D of theirs arrived encoded (host=%2Fvar%2Frun…).
  let parsed: ClientConfig;
  try {
    parsed = parseIntoClientConfig(base);
  } catch (error) {
    // pg-connection-string's own message ("Invalid URL") names neither the variable nor what to do; the URL, which holds the password, is never repeated.
    throw new Error(
      `DATABASE_URL is not a valid URL (${(error as Error).message}): in the user name and password, write @ : / ? # % and spaces percent-encoded`,
    );
  }
  const config: ClientConfig = { ...parsed, ssl };
  for (const name of PASSED_ON) {
    const value = parameters.get(name);
    if (value !== null) Object.assign(config, { [name]: value });
  }
  // libpq reads "h1,h2" as hosts to try in turn; pg would look the whole text up as one name.
  if (config.host?.includes(',')) {
    throw new Error(
      `DATABASE_URL names several hosts (${config.host}): the service connects to one; put a name or a balancer that follows the primary in front of them`,
    );
  }
  // No password in the URL: PGPASSWORD, else the pgpass file (PGPASSFILE, ~/.pgpass), as libpq
  // reads them, asked only if the server wants a password. pg's own reading of pgpass prints a
  // deprecation warning: it is read here instead, as pg advises.
  if (!config.password) {
    const { host, port, database, user } = config;
    config.password = () => process.env.PGPASSWORD ?? passwordFromPgpass({ host, port, database, user });
  }
  return config;
}

function passwordFromPgpass(connection: Record<string, unknown>): Promise<string> {
  return new Promise((resolve) => pgpass(connection, (password) => resolve(password ?? '')));
}

function tlsOf(parameters: URLSearchParams): false | ConnectionOptions {
  const mode = parameters.get('sslmode');
  const ssl = parameters.get('ssl');
  const files = Object.keys(TLS_FILES).some((name) => parameters.has(name));
  if (mode === 'disable') return false;
  if (mode !== null && mode !== 'no-verify' && !VERIFYING_MODES.has(mode)) {
    throw new Error(`DATABASE_URL sslmode must be one of disable, no-verify, ${[...VERIFYING_MODES].join(', ')} (got ${JSON.stringify(mode)})`);
  }
  if (mode === null && !files) {
    if (ssl === null || ssl === 'false' || ssl === '0') return false;
    if (ssl !== 'true' && ssl !== '1') throw new Error(`DATABASE_URL ssl must be true or false (got ${JSON.stringify(ssl)})`);
  }
  const options: ConnectionOptions = mode === 'no-verify' ? { rejectUnauthorized: false } : {};
  for (const [name, option] of Object.entries(TLS_FILES)) {
    const path = parameters.get(name);
    if (path === null) continue;
    // libpq's `sslrootcert=system`: the system's certificate authorities (node's defaults).
    if (name === 'sslrootcert' && path === 'system') continue;
    try {
      options[option] = readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`DATABASE_URL ${name} cannot be read (${(error as Error).message})`);
    }
  }
  return options;
}
