import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { describe, it } from 'node:test';
import { createTestApp } from '../helpers/test-app.js';

/**
 * Resolves once a new connection to the port ends: refused when the server no longer listens, or
 * dropped as idle by a server that is closing. A running server keeps it open (the test's deadline then fails it).
 */
async function stopBegun(port: number): Promise<void> {
  const probe = connect(port, '127.0.0.1');
  probe.on('error', () => {});
  await new Promise((resolve) => probe.on('close', resolve));
}

describe('graceful stop', () => {
  it('a request in flight when the app starts closing > is answered, with Connection: close, and stored', { timeout: 10_000 }, async () => {
    const t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const body = JSON.stringify({ name: 'Last one', categoryId: 1 });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const closedSocket = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers and half the body now; the rest once the stop has begun.
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.authorization}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    // The server has parsed the headers: the request is in flight.
    await once(t.app.server, 'request');
    const closing = t.app.close();
    await stopBegun(port);
    socket.write(body.slice(10));
    await closing;
    await closedSocket;
    assert.match(answer, /^HTTP\/1\.1 201 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    const stored = await t.database.db.selectFrom('pets').select('name').execute();
    assert.deepEqual(stored, [{ name: 'Last one' }]);
    await t.database.drop();
  });
});
