/**
 * What a PostgreSQL DATABASE_URL's query parameters mean. Postgres.js reads them otherwise than pg
 * (the driver before it) did: it sends every parameter it does not know to the server as a setting
 * (`sslrootcert=…` made every statement fail with 42704) and takes `sslmode=require` as TLS without
 * checking the certificate. The parameters are read here, with pg's meanings, and only what
 * Postgres.js should see is left in the URL; docs/operations.md lists them.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

export interface PostgresUrl {
  /** The URL without the parameters read here. */
  url: string;
  /** A `host` parameter (a Unix socket's folder, as pg and libpq take it). */
  host: string | undefined;
  /** TLS: off, or the options of node:tls (the server's certificate checked unless `sslmode=no-verify`). */
  ssl: false | ConnectionOptions;
}

/** Parameters Postgres.js passes on to the server as settings at connection; any other is refused. */
const SERVER_SETTINGS = new Set(['options', 'application_name']);
const TLS_FILES = { sslrootcert: 'ca', sslcert: 'cert', sslkey: 'key' } as const;
/** pg's sslmodes: every one but disable and no-verify asks for TLS with the certificate checked. */
const VERIFYING_MODES = new Set(['allow', 'prefer', 'require', 'verify-ca', 'verify-full']);

/** Reads a PostgreSQL DATABASE_URL's parameters; throws, naming the parameter, on one the service does not take. */
export function postgresUrlOf(url: string): PostgresUrl {
  if (!URL.canParse(url)) return { url, host: undefined, ssl: false };
  const parsed = new URL(url);
  const parameters = parsed.searchParams;
  const host = parameters.get('host') ?? undefined;
  const ssl = tlsOf(parameters);
  for (const name of ['host', 'ssl', 'sslmode', ...Object.keys(TLS_FILES)]) parameters.delete(name);
  for (const name of parameters.keys()) {
    if (!SERVER_SETTINGS.has(name)) {
      throw new Error(`DATABASE_URL parameter ${JSON.stringify(name)} is not supported (supported: host, sslmode, sslrootcert, sslcert, sslkey, ssl, ${[...SERVER_SETTINGS].join(', ')})`);
    }
  }
  return { url: parsed.toString(), host, ssl };
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
