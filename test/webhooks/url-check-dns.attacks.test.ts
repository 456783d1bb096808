/**
 * Hostile review of issue 17, the DNS lookup of a webhook URL at registration (POST, PATCH url),
 * on both databases. It must not run on libuv's threadpool (getaddrinfo holds a thread for as long
 * as the system resolver tries, so a few names whose DNS never answers stalled the process), and at
 * most REGISTRATION_LOOKUPS_MAX run at once per process: one more answers 503, never accepted
 * unchecked. No real name is resolved: the resolver asks a UDP socket of this test on 127.0.0.1
 * that never answers, or a stub lookup answers.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { REGISTRATION_LOOKUPS_MAX, type HostLookup } from '../../src/webhooks/webhook-url-policy.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

const WAIT_MS = 10_000;

/**
 * Every thread of libuv's pool held, without using the CPU: each opens a FIFO for reading, which
 * blocks until a writer opens it. `probe` is a file call queued behind them: it ends only once
 * they are let go, so while it has not, nothing that needs the pool could have run.
 */
async function occupyThreadpool(): Promise<{ probeDone(): boolean; release(): Promise<void> }> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const dir = await mkdtemp(join(tmpdir(), 'threadpool-'));
  const fifos = Array.from({ length: threads }, (_, i) => join(dir, `fifo-${i}`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const readers = fifos.map((fifo) => open(fifo, 'r'));
  let probeDone = false;
  const probe = stat(dir).then(() => {
    probeDone = true;
  });
  return {
    probeDone: () => probeDone,
    async release() {
      // Opened for reading and writing, a FIFO does not block (Linux), and lets its reader's open end.
      const writers = fifos.map((fifo) => openSync(fifo, 'r+'));
      for (const reader of await Promise.all(readers)) await reader.close();
      for (const writer of writers) closeSync(writer);
      await probe;
      await rm(dir, { recursive: true });
    },
  };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook URL lookups at registration on ${dialect}`, {}, () => {
    const register = (t: TestApp, url: string) =>
      t.app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: { ...t.auth, 'content-type': 'application/json' }, payload: { url, events: ['pet.*'] } });

    it('Attack (issue 17): a name whose DNS never answers > asked through c-ares, not the threadpool: the registration is answered while every pool thread is held', async () => {
      const silent = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
      const asked = new Promise<string>((resolve) => silent.once('message', (message) => resolve(message.toString('latin1'))));
      const t = await createTestApp(dialect, { hooks: { webhookUrlDns: { servers: [`127.0.0.1:${(silent.address() as AddressInfo).port}`], timeoutMs: 200, tries: 1 } } });
      const pool = await occupyThreadpool();
      try {
        const response = await withDeadline(register(t, 'https://never-answers.example/hooks'), WAIT_MS, 'the registration');
        const query = await withDeadline(asked, WAIT_MS, 'the name to be asked of the resolver (c-ares), not of getaddrinfo');
        assert.ok(query.includes('never-answers'), 'the query names the host');
        // A name that does not resolve (here: no answer) is accepted, as before.
        assert.equal(response.statusCode, 201, response.body);
        assert.equal(pool.probeDone(), false, 'the threadpool stayed held during the registration');
      } finally {
        await pool.release();
        silent.close();
        await t.close();
      }
    });

    it(`Attack (issue 17): ${REGISTRATION_LOOKUPS_MAX} lookups hanging > one more registration answers 503 service_unavailable with Retry-After, unchecked names are never accepted`, async () => {
      const asked: string[] = [];
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      // Hangs until the test answers, as a name whose DNS never answers does (until the resolver's timeout).
      const lookup: HostLookup = async (hostname) => {
        asked.push(hostname);
        await answered;
        return [{ address: '93.184.215.14', family: 4 }];
      };
      const t = await createTestApp(dialect, { hooks: { webhookLookup: lookup } });
      try {
        const hanging = Array.from({ length: REGISTRATION_LOOKUPS_MAX }, (_, i) => register(t, `https://hang-${i}.example/hooks`));
        await waitUntil(() => asked.length === REGISTRATION_LOOKUPS_MAX, { deadlineMs: WAIT_MS, what: 'every slot taken' });
        const refused = await register(t, 'https://one-more.example/hooks');
        const body = assertErrorBody(refused, { status: 503, code: 'service_unavailable' });
        assert.match(body.message, /URL checks are already running on this instance; retry later/);
        assert.equal(refused.headers['retry-after'], '5');
        // A PATCH of the url shares the slots.
        const { id } = await insertWebhookEndpoint(t.database.db, { url: 'https://receiver.example/' });
        const patched = await t.app.inject({
          method: 'PATCH',
          url: `/v1/webhook-endpoints/${id}`,
          headers: { ...t.auth, 'content-type': 'application/merge-patch+json' },
          payload: { url: 'https://patched.example/hooks' },
        });
        assertErrorBody(patched, { status: 503, code: 'service_unavailable' });
        assert.deepEqual(asked.filter((name) => !name.startsWith('hang-')), [], 'refused before any lookup');
        assert.equal(await urlOf(t, id), 'https://receiver.example/', 'the refused patch changed nothing');
        answer();
        for (const response of await Promise.all(hanging)) assert.equal(response.statusCode, 201, response.body);
        // The slots are given back when their lookups end.
        assert.equal((await register(t, 'https://one-more.example/hooks')).statusCode, 201);
      } finally {
        answer();
        await t.close();
      }
    });
  });
}

async function urlOf(t: TestApp, id: number): Promise<string> {
  return (await t.database.db.selectFrom('webhookEndpoints').select('url').where('id', '=', id).executeTakeFirstOrThrow()).url;
}
