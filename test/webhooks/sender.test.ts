/**
 * The sender's connections, without a database: the DNS lookup of webhook hosts (c-ares, with a
 * timeout, never the threadpool's getaddrinfo), WEBHOOK_ALLOWED_HOSTS compared as at registration,
 * non-public addresses refused before any connection, and an attempt that lasts as long as its
 * connection is in use (the answer's body read to its end, its cap or the timeout). No real name is
 * resolved: the resolver asks a UDP socket of this test on 127.0.0.1 that never answers, and the
 * receiver's name answers through a stub lookup.
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import type { AddressInfo, LookupFunction } from 'node:net';
import { describe, it } from 'node:test';
import { createWebhookSender, REFUSED_NOT_PUBLIC } from '../../src/webhooks/webhook-sender.js';
import { newWebhookSecret, startWebhookReceiver } from '../helpers/webhook-endpoint-row.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';

/** A lookup answering `address` for any name, telling which names it was asked. */
function lookupAnswering(address: string): LookupFunction & { asked: string[] } {
  const asked: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  return Object.assign(lookup, { asked });
}

const message = (url: string) => ({ url, messageId: 'msg_1', payload: '{}', secrets: [newWebhookSecret()] });
const notStopped = () => new AbortController().signal;

describe('webhook sender', () => {
  it('Attack: a name server that never answers > the name is asked through c-ares (not the threadpool), and the attempt fails with a DNS timeout', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const asked = new Promise<void>((resolve) => silent.once('message', () => resolve()));
    const sender = createWebhookSender({
      allowedHosts: [],
      timeoutMs: 10_000,
      maxSockets: 16,
      now: Date.now,
      dns: { servers: [`127.0.0.1:${(silent.address() as AddressInfo).port}`], timeoutMs: 200, tries: 1 },
    });
    try {
      const attempt = sender.send(
        { url: 'https://slow.example/hooks', messageId: 'msg_1', payload: '{}', secrets: [newWebhookSecret()] },
        new AbortController().signal,
      );
      await withDeadline(asked, 10_000, 'the name to be asked of the resolver (c-ares), not of getaddrinfo');
      const result = await withDeadline(attempt, 10_000, 'the attempt to give up on the name');
      assert.equal(result.error, 'dns: ETIMEOUT');
    } finally {
      sender.close();
      silent.close();
    }
  });

  it('Attack: WEBHOOK_ALLOWED_HOSTS with a trailing dot > the host is allowed at send as at registration (http reaches it)', async () => {
    const receiver = await startWebhookReceiver();
    const sender = createWebhookSender({
      allowedHosts: ['hooks.internal.'],
      timeoutMs: 5000,
      maxSockets: 16,
      now: Date.now,
      // The operator's name points at this test's receiver.
      lookup: ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        assert.equal(hostname, 'hooks.internal');
        if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
        else callback(null, '127.0.0.1', 4);
      }) as never,
    });
    try {
      const url = receiver.url.replace('127.0.0.1', 'Hooks.Internal');
      const result = await sender.send({ url, messageId: 'msg_1', payload: '{}', secrets: [newWebhookSecret()] }, new AbortController().signal);
      assert.equal(result.statusCode, 204, JSON.stringify(result));
      assert.equal(receiver.received.length, 1);
    } finally {
      sender.close();
      await receiver.close();
    }
  });

  it('an IPv4-compatible IPv6 address (::/96), as a literal or answered by DNS > refused before connecting', async () => {
    const lookup = lookupAnswering('::7f00:1');
    const sender = createWebhookSender({ allowedHosts: [], timeoutMs: 5000, maxSockets: 16, now: Date.now, lookup });
    try {
      for (const url of [
        'https://[::127.0.0.1]/hooks',
        'https://[0::7f00:1]/',
        'https://[::10.0.0.1]/',
        'https://[::169.254.169.254]/latest',
        'https://compat.example/hooks',
      ]) {
        const result = await sender.send(message(url), notStopped());
        assert.deepEqual([result.error, result.refused], [REFUSED_NOT_PUBLIC, true], url);
      }
      assert.deepEqual(lookup.asked, ['compat.example'], 'literals need no lookup; the name is refused on its answer');
      assert.deepEqual(await sender.send(message('https://localhost../hooks'), notStopped()), { error: 'refused: not a valid URL', durationMs: 0 });
    } finally {
      sender.close();
    }
  });

  it('an answer whose body never ends > the attempt lasts until its timeout, then its connection is dropped; the outcome is its status', async () => {
    const receiver = await startWebhookReceiver(() => 'drip');
    const sender = createWebhookSender({ allowedHosts: ['127.0.0.1'], timeoutMs: 2000, maxSockets: 16, now: Date.now });
    try {
      let settled = false;
      const attempt = sender.send(message(receiver.url), notStopped()).finally(() => (settled = true));
      await waitUntil(() => receiver.dripped() >= 3, { deadlineMs: 10_000, what: 'the answer to drip 3 bytes' });
      assert.equal(settled, false, 'the attempt is not over while the body runs');
      const result = await withDeadline(attempt, 10_000, 'the attempt to end at its timeout');
      assert.equal(result.statusCode, 200, JSON.stringify(result));
      assert.equal(result.error, undefined);
      await waitUntil(() => receiver.connections.closed === 1, { deadlineMs: 10_000, what: 'the connection to be dropped' });
    } finally {
      sender.close();
      await receiver.close();
    }
  });

  it('an answer longer than 64 KiB > the attempt ends once 64 KiB are read, its connection dropped, long before its timeout', async () => {
    const receiver = await startWebhookReceiver(() => 'flood');
    const sender = createWebhookSender({ allowedHosts: ['127.0.0.1'], timeoutMs: 600_000, maxSockets: 16, now: Date.now });
    try {
      const result = await withDeadline(sender.send(message(receiver.url), notStopped()), 30_000, 'the attempt to end at the cap');
      assert.equal(result.statusCode, 200, JSON.stringify(result));
      await waitUntil(() => receiver.connections.closed === 1, { deadlineMs: 10_000, what: 'the connection to be dropped' });
    } finally {
      sender.close();
      await receiver.close();
    }
  });

  it('an answer read to its end > the connection is kept and the next attempt reuses it', async () => {
    const receiver = await startWebhookReceiver();
    const sender = createWebhookSender({ allowedHosts: ['127.0.0.1'], timeoutMs: 5000, maxSockets: 16, now: Date.now });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await sender.send(message(receiver.url), notStopped())).statusCode, 204);
      assert.deepEqual([receiver.connections.peak, receiver.connections.closed], [1, 0]);
    } finally {
      sender.close();
      await receiver.close();
    }
  });

  it('WEBHOOK_MAX_SOCKETS reached with idle connections > one is closed to make room, never one more', async () => {
    const receivers = await Promise.all([startWebhookReceiver(), startWebhookReceiver(), startWebhookReceiver()]);
    const sender = createWebhookSender({ allowedHosts: ['127.0.0.1'], timeoutMs: 5000, maxSockets: 2, now: Date.now });
    try {
      for (const receiver of receivers) assert.equal((await sender.send(message(receiver.url), notStopped())).statusCode, 204);
      // The first receiver's idle connection made room for the third's.
      await waitUntil(() => receivers[0]!.connections.closed === 1, { deadlineMs: 10_000, what: 'an idle connection to be closed' });
      assert.deepEqual(
        receivers.map((receiver) => receiver.connections.open),
        [0, 1, 1],
      );
    } finally {
      sender.close();
      for (const receiver of receivers) await receiver.close();
    }
  });
});
