/**
 * Hostile review of a PostgreSQL DATABASE_URL (db/postgres/url.ts, database-url.ts locationOf,
 * hints.ts): passwords with characters a URL gives a meaning to, IPv6 hosts, a socket folder,
 * an invalid URL. A password never appears in a message or a log line; nothing is printed on
 * stderr; what the URL says reaches the connection unchanged. No server needed.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { createDb } from '../../../src/db/create-db.js';
import { locationOf } from '../../../src/db/database-url.js';
import { hintForDatabaseError } from '../../../src/db/hints.js';
import { postgresConfigOf } from '../../../src/db/postgres/url.js';

/** The message loadConfig stops the start with. */
function configProblem(databaseUrl: string): string {
  try {
    loadConfig({ DATABASE_URL: databaseUrl });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  return assert.fail('the configuration was accepted');
}

describe('hostile: a password with characters a URL gives a meaning to', () => {
  it('a "?" in the password, not percent-encoded > the refusal repeats no part of the password', () => {
    const message = configProblem('postgres://shop:se?cret@db.example/store');
    assert.doesNotMatch(message, /cret/, message);
  });

  it('an "@" in the password, not percent-encoded (the URL takes the last one) > the location logged at start hides all of it', () => {
    // pg-connection-string reads the password "p@ss" and connects with it.
    assert.equal(postgresConfigOf('postgres://shop:p@ss@db.example/store').password, 'p@ss');
    assert.equal(locationOf('postgres://shop:p@ss@db.example/store'), 'postgres://shop:***@db.example/store');
  });

  it('a password without a user name > the location logged at start hides it', () => {
    assert.equal(postgresConfigOf('postgres://:secret@db.example/store').password, 'secret');
    assert.doesNotMatch(locationOf('postgres://:secret@db.example/store'), /secret/);
  });

  it('a space or a lone "%" in the password > the socket folder, options and application_name still arrive as written', () => {
    const parameters = `host=${encodeURIComponent('/var/run/postgresql')}&options=${encodeURIComponent('-c search_path=shop')}&application_name=${encodeURIComponent('shop/eu')}`;
    for (const password of ['pa ss', '50%off']) {
      const config = postgresConfigOf(`postgres://shop:${password}@/store?${parameters}`);
      assert.equal(config.password, password);
      assert.deepEqual(
        [config.host, config.options, config.application_name],
        ['/var/run/postgresql', '-c search_path=shop', 'shop/eu'],
        `password ${JSON.stringify(password)}`,
      );
    }
  });

  it('an invalid URL (a port that is no number) > the message names DATABASE_URL, and not the password', () => {
    const message = configProblem('postgres://shop:secret@db.example:port/store');
    assert.match(message, /DATABASE_URL/, message);
    assert.doesNotMatch(message, /secret/, message);
  });
});

describe('hostile: a URL libpq reads differently', () => {
  it('several hosts, as libpq takes them for failover (h1,h2) > refused at start, naming why, not a start that fails every connection with ENOTFOUND', () => {
    const message = configProblem('postgres://shop:secret@db1.example,db2.example/store');
    assert.match(message, /DATABASE_URL.*host/, message);
    assert.doesNotMatch(message, /secret/, message);
  });
});

describe('hostile: the createdb hint for hosts a URL writes differently from libpq', () => {
  const missing = Object.assign(new Error('database "store" does not exist'), { code: '3D000' });

  it('an IPv6 host > the hint passes it to -h without brackets, as libpq reads it', () => {
    const hint = hintForDatabaseError(missing, 'postgres://shop:secret@[::1]:5432/store') ?? '';
    assert.match(hint, /createdb -h ::1 -p 5432/, hint);
  });

  it('a socket folder (?host=) > the hint names the folder, not localhost over TCP', () => {
    const hint = hintForDatabaseError(missing, 'postgres://shop@/store?host=/var/run/postgresql') ?? '';
    assert.match(hint, /createdb -h \/var\/run\/postgresql /, hint);
  });
});

describe('hostile: nothing printed on stderr', () => {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-pgpass-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a URL without a password, the password in a pgpass file > it is sent, with no DeprecationWarning on stderr', async () => {
    // A server that asks for a password (cleartext), then hangs up once it has it.
    const received: string[] = [];
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        socket.once('data', (message) => {
          received.push(message.toString('latin1'));
          socket.destroy();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const passFile = join(dir, 'pgpass');
    writeFileSync(passFile, '*:*:*:*:secret\n');
    chmodSync(passFile, 0o600);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const previous = process.env.PGPASSFILE;
    process.env.PGPASSFILE = passFile;
    const handle = createDb(`postgres://shop@127.0.0.1:${(server.address() as net.AddressInfo).port}/store`, { poolMax: 1, statementTimeoutMs: 1000 });
    try {
      await handle.db
        .selectNoFrom((eb) => eb.val(1).as('one'))
        .execute()
        .catch(() => undefined);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
      // The password was read from the file, and sent.
      assert.match(received.join(''), /secret/);
    } finally {
      process.off('warning', onWarning);
      if (previous === undefined) delete process.env.PGPASSFILE;
      else process.env.PGPASSFILE = previous;
      await handle.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
