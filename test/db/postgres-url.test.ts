/**
 * What a PostgreSQL DATABASE_URL's parameters mean (pg's meanings, which the service had before its
 * own driver), and which database errors are answered 503: no server needed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { isDatabaseUnavailable } from '../../src/db/create-db.js';
import { postgresUrlOf } from '../../src/db/postgres-url.js';

const dir = mkdtempSync(join(tmpdir(), 'animal-store-url-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('PostgreSQL DATABASE_URL parameters', () => {
  const base = 'postgres://u:p@db.example:5432/store';

  it('Attack (issue 16): every sslmode but disable and no-verify checks the certificate, as pg did', () => {
    assert.equal(postgresUrlOf(base).ssl, false);
    assert.equal(postgresUrlOf(`${base}?sslmode=disable`).ssl, false);
    for (const mode of ['allow', 'prefer', 'require', 'verify-ca', 'verify-full']) {
      const { ssl } = postgresUrlOf(`${base}?sslmode=${mode}`);
      assert.ok(ssl, mode);
      assert.notEqual(ssl.rejectUnauthorized, false, `${mode} checks the certificate`);
    }
    assert.deepEqual(postgresUrlOf(`${base}?sslmode=no-verify`).ssl, { rejectUnauthorized: false });
    assert.deepEqual(postgresUrlOf(`${base}?ssl=true`).ssl, {});
    assert.equal(postgresUrlOf(`${base}?ssl=false`).ssl, false);
    assert.throws(() => postgresUrlOf(`${base}?sslmode=sometimes`), /sslmode must be one of/);
  });

  it('Attack (issue 16): sslrootcert, sslcert and sslkey are files, read and kept from the server', () => {
    const ca = file('ca.pem', 'CA');
    const cert = file('cert.pem', 'CERT');
    const key = file('key.pem', 'KEY');
    const parsed = postgresUrlOf(`${base}?sslmode=verify-full&sslrootcert=${ca}&sslcert=${cert}&sslkey=${key}&application_name=shop`);
    assert.deepEqual(parsed.ssl, { ca: 'CA', cert: 'CERT', key: 'KEY' });
    assert.equal(parsed.url, `${base}?application_name=shop`);
    // A file without sslmode asks for TLS, as with pg.
    assert.deepEqual(postgresUrlOf(`${base}?sslrootcert=${ca}`).ssl, { ca: 'CA' });
    assert.deepEqual(postgresUrlOf(`${base}?sslrootcert=system`).ssl, {});
    assert.throws(() => postgresUrlOf(`${base}?sslrootcert=${join(dir, 'missing.pem')}`), /sslrootcert cannot be read/);
  });

  it('Attack (issue 16): a parameter the server would get as an unknown setting is refused at config load', () => {
    assert.throws(() => postgresUrlOf(`${base}?connect_timeout=5`), /parameter "connect_timeout" is not supported/);
    const options = `${base}?options=${encodeURIComponent('-c search_path=s')}&host=/run/pg`;
    assert.deepEqual(postgresUrlOf(options), { url: `${base}?options=-c+search_path%3Ds`, host: '/run/pg', ssl: false });
    assert.throws(() => loadConfig({ DATABASE_URL: `${base}?sslcompression=1` }), (error: unknown) => error instanceof ConfigError && /"sslcompression" is not supported/.test(error.message));
    assert.throws(() => loadConfig({ DATABASE_URL: `${base}?sslmode=require&sslrootcert=${join(dir, 'missing.pem')}` }), ConfigError);
  });
});

describe('database errors answered 503', () => {
  it('Attack (issue 16): insufficient resources, a terminated session and an idle transaction ended are unavailable', () => {
    for (const code of ['53300', '53100', '53200', '53400', '57P01', '57P02', '57P03', '25P03', '08006', '57014']) {
      assert.ok(isDatabaseUnavailable(Object.assign(new Error(code), { code })), code);
    }
    for (const code of ['23505', '42704', '25P02', '22P02']) assert.equal(isDatabaseUnavailable(Object.assign(new Error(code), { code })), false, code);
  });
});
