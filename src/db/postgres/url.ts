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
      throw new Error(`DATABASE_URL parameter ${JSON.stringify(name)} is not supported (supported: ${[...PASSED_ON, ...TLS_PARAMETERS].join(', ')})`);
    }
  }
  const ssl = tlsOf(parameters);
  for (const name of TLS_PARAMETERS) parameters.delete(name);
  const rest = parameters.toString();
  return { ...parseIntoClientConfig(rest ? `${base}?${rest}` : base), ssl };
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
