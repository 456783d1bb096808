import assert from 'node:assert/strict';
import { type AddressInfo, connect } from 'node:net';
import { describe, it } from 'node:test';
import { createTestApp } from '../helpers/test-app.js';

describe('graceful stop', () => {
  it('a request in flight when the app starts closing > is answered, with Connection: close, and stored', async () => {
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
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
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
