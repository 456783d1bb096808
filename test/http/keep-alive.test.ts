/**
 * Answers sent at once (a page or a pet kept in memory) keep the connection open: Node marks a
 * request without a body complete only after the handler of a fully synchronous answer has run,
 * and the lingering close (http/lingering-close.ts) must not take that for a body still arriving.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('keep-alive with answers sent at once', () => {
  let t: TestApp;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  before(async () => {
    t = await createTestApp('sqlite');
    await t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: { name: 'Rex', categoryId: 1 },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    agent.destroy();
    await t.close();
  });

  const get = (path: string) =>
    new Promise<{ status: number; connection: string | undefined; socket: unknown }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, agent, headers: t.auth }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, socket: req.socket }));
      });
      req.on('error', reject);
      req.end();
    });

  it('the same page and the same pet, served again from memory, come over one connection', async () => {
    const answers = [];
    for (const path of ['/v1/pets?limit=5', '/v1/pets?limit=5', '/v1/pets/1', '/v1/pets/1', '/v1/pets?limit=5']) answers.push(await get(path));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200],
    );
    assert.deepEqual(
      answers.map((a) => a.connection),
      Array(5).fill('keep-alive'),
    );
    assert.equal(new Set(answers.map((a) => a.socket)).size, 1, 'one connection served them all');
  });
});
