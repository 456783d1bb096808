/**
 * What a PostgreSQL DATABASE_URL's parameters mean (pg's meanings, which the service had before its
 * own driver), and which database errors are answered 503: no server needed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { isDatabaseUnavailable } from '../../../src/db/unavailable.js';
import { postgresConfigOf } from '../../../src/db/postgres/url.js';

const dir = mkdtempSync(join(tmpdir(), 'animal-store-url-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('PostgreSQL DATABASE_URL parameters', () => {
  const base = 'postgres://u:p@db.example:5432/store';

  it('Attack: every sslmode but disable and no-verify checks the certificate, as pg did', () => {
    assert.equal(postgresConfigOf(base).ssl, false);
    assert.equal(postgresConfigOf(`${base}?sslmode=disable`).ssl, false);
    for (const mode of ['allow', 'prefer', 'require', 'verify-ca', 'verify-full']) {
      const { ssl } = postgresConfigOf(`${base}?sslmode=${mode}`);
      assert.ok(ssl, mode);
      assert.notEqual((ssl as { rejectUnauthorized?: boolean }).rejectUnauthorized, false, `${mode} checks the certificate`);
    }
    assert.deepEqual(postgresConfigOf(`${base}?sslmode=no-verify`).ssl, { rejectUnauthorized: false });
    assert.deepEqual(postgresConfigOf(`${base}?ssl=true`).ssl, {});
    assert.equal(postgresConfigOf(`${base}?ssl=false`).ssl, false);
    assert.throws(() => postgresConfigOf(`${base}?sslmode=sometimes`), /sslmode must be one of/);
  });

  it('Attack: sslrootcert, sslcert and sslkey are files, read and kept from the server', () => {
    const ca = file('ca.pem', 'CA');
    const cert = file('cert.pem', 'CERT');
    const key = file('key.pem', 'KEY');
    const parsed = postgresConfigOf(`${base}?sslmode=verify-full&sslrootcert=${ca}&sslcert=${cert}&sslkey=${key}&application_name=shop`);
    assert.deepEqual(parsed.ssl, { ca: 'CA', cert: 'CERT', key: 'KEY' });
    assert.equal(parsed.application_name, 'shop');
    assert.deepEqual([parsed.user, parsed.password, parsed.host, parsed.port, parsed.database], ['u', 'p', 'db.example', 5432, 'store']);
    // A file without sslmode asks for TLS, as with pg.
    assert.deepEqual(postgresConfigOf(`${base}?sslrootcert=${ca}`).ssl, { ca: 'CA' });
    assert.deepEqual(postgresConfigOf(`${base}?sslrootcert=system`).ssl, {});
    assert.throws(() => postgresConfigOf(`${base}?sslrootcert=${join(dir, 'missing.pem')}`), /sslrootcert cannot be read/);
  });

  it('Attack: a parameter the server would get as an unknown setting is refused at config load', () => {
    assert.throws(() => postgresConfigOf(`${base}?connect_timeout=5`), /parameter "connect_timeout" is not supported/);
    const options = `${base}?options=${encodeURIComponent('-c search_path=s')}&host=/run/pg`;
    const config = postgresConfigOf(options);
    assert.deepEqual([config.options, config.host, config.ssl], ['-c search_path=s', '/run/pg', false]);
    assert.throws(
      () => loadConfig({ DATABASE_URL: `${base}?sslcompression=1` }),
      (error: unknown) => error instanceof ConfigError && /"sslcompression" is not supported/.test(error.message),
    );
    assert.throws(() => loadConfig({ DATABASE_URL: `${base}?sslmode=require&sslrootcert=${join(dir, 'missing.pem')}` }), ConfigError);
  });
});

describe('database errors answered 503', () => {
  it('Attack: insufficient resources, a terminated session and an idle transaction ended are unavailable', () => {
    for (const code of ['53300', '53100', '53200', '53400', '57P01', '57P02', '57P03', '25P03', '08006', '57014']) {
      assert.ok(isDatabaseUnavailable(Object.assign(new Error(code), { code })), code);
    }
    for (const code of ['23505', '42704', '25P02', '22P02']) assert.equal(isDatabaseUnavailable(Object.assign(new Error(code), { code })), false, code);
  });
});
