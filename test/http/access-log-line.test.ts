import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type AccessLogFields, fieldsObject, writeAccessLine } from '../../src/http/access-log-line.js';
import { generateApiKey } from '../../src/keys/api-key-token.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

/** The line's time is the clock's, read apart for each line: compared without it. */
const withoutTime = (line: string) => line.replace(/,"time":\d+/, ',"time":T');

describe('the access log line', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const written: string[] = [];
  before(async () => {
    database = await createTestDatabase('sqlite');
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ db: database.db, config: loadConfig({ LOG_LEVEL: 'info' }), logStream });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await database.close();
  });

  /** The line written by hand, and the one pino writes for the same fields through the same child logger. */
  const bothLines = (fields: AccessLogFields) => {
    const log = app.log.child({ requestId: 'req-1' });
    written.length = 0;
    writeAccessLine(log, fields);
    log.info(fieldsObject(fields), 'request');
    assert.equal(written.length, 2, 'one write per line');
    return written.map(withoutTime);
  };

  const key = generateApiKey();
  for (const [scenario, fields] of [
    [
      'an authenticated answer',
      { method: 'GET', url: '/v1/pets?limit=20', route: '/v1/pets', statusCode: 200, durationMs: 1.25, keyId: 7, keyPrefix: key.prefix, clientAborted: false },
    ],
    [
      'an unknown path, no key',
      { method: 'GET', url: '/v1/nope', route: undefined, statusCode: 404, durationMs: 0, keyId: undefined, keyPrefix: undefined, clientAborted: false },
    ],
    [
      'a client that hung up before the answer',
      { method: 'POST', url: '/v1/pets', route: '/v1/pets', statusCode: null, durationMs: 1234.5, keyId: 1, keyPrefix: key.prefix, clientAborted: true },
    ],
    [
      'a URL with quotes and backslashes',
      {
        method: 'GET',
        url: '/v1/pets?q="a\\b"',
        route: '/v1/pets',
        statusCode: 400,
        durationMs: 12,
        keyId: undefined,
        keyPrefix: undefined,
        clientAborted: false,
      },
    ],
    [
      'a URL with a control character',
      {
        method: 'GET',
        url: '/v1/pets?q=\u0001é',
        route: '/v1/pets',
        statusCode: 400,
        durationMs: 0.01,
        keyId: undefined,
        keyPrefix: undefined,
        clientAborted: false,
      },
    ],
    [
      'a URL with quotes, backslashes and a control character',
      {
        method: 'GET',
        url: '/v1/pets?q="a\\b"\u0001é',
        route: '/v1/pets',
        statusCode: 400,
        durationMs: 0.01,
        keyId: undefined,
        keyPrefix: undefined,
        clientAborted: false,
      },
    ],
    [
      'a long URL',
      {
        method: 'GET',
        url: `/v1/pets?ids=${'1,'.repeat(200)}`,
        route: '/v1/pets',
        statusCode: 200,
        durationMs: 3,
        keyId: 2,
        keyPrefix: key.prefix,
        clientAborted: false,
      },
    ],
    [
      'a key pasted into the URL',
      {
        method: 'GET',
        url: `/v1/pets?key=${key.key}`,
        route: '/v1/pets',
        statusCode: 401,
        durationMs: 0.5,
        keyId: undefined,
        keyPrefix: undefined,
        clientAborted: false,
      },
    ],
    [
      'a key percent-encoded in the URL',
      {
        method: 'GET',
        url: `/v1/pets?key=${key.key.replace('_', '%5F')}`,
        route: '/v1/pets',
        statusCode: 401,
        durationMs: 0.5,
        keyId: undefined,
        keyPrefix: undefined,
        clientAborted: false,
      },
    ],
  ] as [string, AccessLogFields][]) {
    it(`${scenario} > is the line pino writes for the same fields with the service's logger`, () => {
      const [byHand, byPino] = bothLines(fields);
      assert.equal(byHand, byPino);
    });
  }

  it('a key pasted into the URL > is logged with its display prefix only', () => {
    const [byHand] = bothLines({
      method: 'GET',
      url: `/v1/pets?key=${key.key}`,
      route: '/v1/pets',
      statusCode: 401,
      durationMs: 0.5,
      keyId: undefined,
      keyPrefix: undefined,
      clientAborted: false,
    });
    assert.ok(!byHand!.includes(key.key), byHand);
    assert.match(byHand!, new RegExp(`"url":"/v1/pets\\?key=${key.prefix.replace(/[-_]/g, '\\$&')}\\[redacted\\]"`));
  });

  it('a logger above info > writes nothing', () => {
    const log = app.log.child({ requestId: 'req-2' }, { level: 'warn' });
    written.length = 0;
    writeAccessLine(log, { method: 'GET', url: '/', route: '/', statusCode: 200, durationMs: 1, keyId: undefined, keyPrefix: undefined, clientAborted: false });
    assert.deepEqual(written, []);
  });
});
