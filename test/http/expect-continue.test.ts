import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { shouldInviteBody } from '../../src/http/expect-continue.js';
import { askToContinue } from '../helpers/raw-http.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('Expect: 100-continue', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('without credentials > answers 401 at once, never 100 Continue', async () => {
    const { socket, first } = await askToContinue(port, '', 30);
    socket.destroy();
    assert.match(first, /^HTTP\/1\.1 401 /);
    assert.doesNotMatch(first, /100 Continue/);
  });

  it('with an unknown key > answers 401 at once, never 100 Continue', async () => {
    const { socket, first } = await askToContinue(port, `Authorization: Bearer ask_${'x'.repeat(43)}\r\n`, 30);
    socket.destroy();
    assert.match(first, /^HTTP\/1\.1 401 /);
  });

  it('with a valid key and a body over BODY_LIMIT > answers 413 at once, never 100 Continue', async () => {
    const { socket, first } = await askToContinue(port, `Authorization: ${t.auth.authorization}\r\n`, 10 * 1024 * 1024);
    socket.destroy();
    assert.match(first, /^HTTP\/1\.1 413 /);
  });

  it('with a valid key > answers 100 Continue, then stores the body sent after it', async () => {
    const body = JSON.stringify({ name: 'Invited', categoryId: 2 });
    const { socket, first } = await askToContinue(port, `Authorization: ${t.auth.authorization}\r\n`, Buffer.byteLength(body));
    assert.equal(first, 'HTTP/1.1 100 Continue\r\n\r\n');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.write(body);
    while (!answer.includes('"Invited"')) await once(socket, 'data');
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 201 /);
    const stored = await t.database.db.selectFrom('pets').select('name').where('name', '=', 'Invited').execute();
    assert.deepEqual(stored, [{ name: 'Invited' }]);
  });
});

describe('shouldInviteBody', () => {
  it('without Expect: 100-continue > is false', () => assert.equal(shouldInviteBody({ 'content-length': '10' }, 100), false));
  it('with a declared length within the limit > is true, whatever the case of the value', () =>
    assert.equal(shouldInviteBody({ expect: '100-Continue', 'content-length': '100' }, 100), true));
  it('with a declared length over the limit > is false', () => assert.equal(shouldInviteBody({ expect: '100-continue', 'content-length': '101' }, 100), false));
});
