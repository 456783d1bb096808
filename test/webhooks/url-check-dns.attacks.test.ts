/**
 * Hostile review, the DNS lookup of a webhook URL at registration (POST, PATCH url),
 * on both databases. It must not run on libuv's threadpool (getaddrinfo holds a thread for as long
 * as the system resolver tries, so a few names whose DNS never answers stalled the process), and at
 * most REGISTRATION_LOOKUPS_PER_KEY of one key run at once (one more answers 503, for that key
 * only), and while REGISTRATION_LOOKUPS_MAX of many keys run, a URL is accepted without its lookup
 * (the check at connection protects), so one key cannot block everyone's registrations. No real name is resolved: the resolver asks a UDP socket of this test on 127.0.0.1
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
import { issueApiKey } from '../../src/keys/keys.service.js';
import { REGISTRATION_LOOKUPS_MAX, REGISTRATION_LOOKUPS_PER_KEY, type HostLookup } from '../../src/webhooks/webhook-url-policy.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { sampleValue } from '../helpers/metrics.js';
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
      t.app.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: { url, events: ['pet.*'] },
      });

    it('Attack: a name whose DNS never answers > asked through c-ares, not the threadpool: the registration is answered while every pool thread is held', async () => {
      const silent = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
      const asked = new Promise<string>((resolve) => silent.once('message', (message) => resolve(message.toString('latin1'))));
      const t = await createTestApp(dialect, {
        hooks: { webhookUrlDns: { servers: [`127.0.0.1:${(silent.address() as AddressInfo).port}`], timeoutMs: 200, tries: 1 } },
      });
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

    /** A lookup that hangs until the test answers, as a name whose DNS never answers does (until the resolver's timeout). */
    const hangingLookup = () => {
      const asked: string[] = [];
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const lookup: HostLookup = async (hostname) => {
        asked.push(hostname);
        await answered;
        return [{ address: '93.184.215.14', family: 4 }];
      };
      return { asked, answer: () => answer(), lookup };
    };
    const registerAs = (t: TestApp, auth: { authorization: string }, url: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: { url, events: ['pet.*'] },
      });
    const newKey = async (t: TestApp, name: string) => ({
      authorization: `Bearer ${(await issueApiKey(t.database.db, { name, scopes: ['pets:read', 'webhooks:write'] })).key}`,
    });

    it(`Attack: one key with ${REGISTRATION_LOOKUPS_PER_KEY} lookups hanging > its next registration answers 503 with Retry-After; another key is still served`, async () => {
      const dns = hangingLookup();
      const t = await createTestApp(dialect, { hooks: { webhookLookup: dns.lookup } });
      try {
        const [keyA, keyB] = [await newKey(t, 'a'), await newKey(t, 'b')];
        const hanging = Array.from({ length: REGISTRATION_LOOKUPS_PER_KEY }, (_, i) => registerAs(t, keyA, `https://hang-${i}.example/hooks`));
        await waitUntil(() => dns.asked.length === REGISTRATION_LOOKUPS_PER_KEY, { deadlineMs: WAIT_MS, what: "key A's slots taken" });
        const refused = await registerAs(t, keyA, 'https://one-more.example/hooks');
        const body = assertErrorBody(refused, { status: 503, code: 'service_unavailable' });
        assert.match(body.message, /URL checks of this API key are already running; retry later/);
        assert.equal(refused.headers['retry-after'], '5');
        // A PATCH of the url by the same key shares its slots.
        const { id } = await insertWebhookEndpoint(t.database.db, { url: 'https://receiver.example/', events: ['pet.*'], allowedTypes: ['pet.created'] });
        const patched = await t.app.inject({
          method: 'PATCH',
          url: `/v1/webhook-endpoints/${id}`,
          headers: { ...keyA, 'content-type': 'application/merge-patch+json' },
          payload: { url: 'https://patched.example/hooks' },
        });
        assertErrorBody(patched, { status: 503, code: 'service_unavailable' });
        assert.equal(await urlOf(t, id), 'https://receiver.example/', 'the refused patch changed nothing');
        assert.deepEqual(
          dns.asked.filter((name) => !name.startsWith('hang-')),
          [],
          'refused before any lookup',
        );
        // Key B is served meanwhile: its lookup runs (and hangs too, until answered).
        const served = registerAs(t, keyB, 'https://key-b.example/hooks');
        await waitUntil(() => dns.asked.includes('key-b.example'), { deadlineMs: WAIT_MS, what: "key B's lookup" });
        dns.answer();
        assert.equal((await served).statusCode, 201);
        for (const response of await Promise.all(hanging)) assert.equal(response.statusCode, 201, response.body);
        // The slots are given back when their lookups end.
        assert.equal((await registerAs(t, keyA, 'https://one-more.example/hooks')).statusCode, 201);
      } finally {
        dns.answer();
        await t.close();
      }
    });

    it(`Attack: all ${REGISTRATION_LOOKUPS_MAX} lookup slots of the process hanging (many keys) > a registration is accepted without its lookup, and counted`, async () => {
      const dns = hangingLookup();
      const t = await createTestApp(dialect, { hooks: { webhookLookup: dns.lookup } });
      try {
        const keys = REGISTRATION_LOOKUPS_MAX / REGISTRATION_LOOKUPS_PER_KEY;
        const hanging = [];
        for (let k = 0; k < keys; k++) {
          const key = await newKey(t, `k${k}`);
          for (let i = 0; i < REGISTRATION_LOOKUPS_PER_KEY; i++) hanging.push(registerAs(t, key, `https://hang-${k}-${i}.example/hooks`));
        }
        await waitUntil(() => dns.asked.length === REGISTRATION_LOOKUPS_MAX, { deadlineMs: WAIT_MS, what: 'every slot taken' });
        const accepted = await registerAs(t, await newKey(t, 'other'), 'https://unchecked.example/hooks');
        assert.equal(accepted.statusCode, 201, accepted.body);
        assert.equal(dns.asked.includes('unchecked.example'), false, 'accepted without its lookup');
        assert.equal(sampleValue((await t.app.inject({ method: 'GET', url: '/metrics' })).body, 'animal_store_webhook_url_checks_skipped_total'), 1);
        // An IP literal needs no lookup: refused as ever when not public.
        assertErrorBody(await registerAs(t, t.auth, 'https://10.0.0.1/hooks'), { status: 400, code: 'validation_failed' });
        dns.answer();
        for (const response of await Promise.all(hanging)) assert.equal(response.statusCode, 201, response.body);
      } finally {
        dns.answer();
        await t.close();
      }
    });
  });
}

async function urlOf(t: TestApp, id: number): Promise<string> {
  return (await t.database.db.selectFrom('webhookEndpoints').select('url').where('id', '=', id).executeTakeFirstOrThrow()).url;
}
