/**
 * Requests that never arrive completely get 408 within the request timeout (README: 30 s), not
 * after Node's own checking interval. Run with a 500 ms timeout; each test allows 10 s.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const sockets: Socket[] = [];

/** Sends `head` and nothing more, and answers everything the service sends until it closes. */
async function stallAfter(port: number, head: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.write(head);
  await once(socket, 'close');
  return answer;
}

describe('request timeout', { timeout: 30_000 }, () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  let key: string;
  before(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp({ db: database.db, config: loadConfig({ LOG_LEVEL: 'silent' }), requestTimeoutMs: 500 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    key = (await issueApiKey(database.db, { name: 'slow' })).key;
  });
  after(async () => {
    // Without the fix, the stalled sockets would hold the close for Node's 30 s checking interval.
    for (const socket of sockets) socket.destroy();
    await app.close();
    await database.drop();
  });

  const expect408 = (answer: string) => {
    assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
      code: 'request_timeout',
      message: 'the request was not received completely in time',
      status: 408,
    });
  };

  it('when the headers never finish > answers 408 request_timeout and closes', { timeout: 10_000 }, async () => {
    expect408(await stallAfter(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n'));
  });

  it('when the body stalls > answers 408 request_timeout and closes', { timeout: 10_000 }, async () => {
    expect408(
      await stallAfter(
        port,
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      ),
    );
  });
});
