/**
 * Receivers that answer 200 and then send their body one byte at a time, forever, must not take
 * the descriptors the API needs. The real service runs with `ulimit -n 1024` (a common soft limit)
 * against 8 such receivers: each attempt reads the answer's body within its send slot (until 64 KiB
 * or its timeout, then drops the connection), so the webhook sockets are the sends in flight, and
 * those are capped in all by WEBHOOK_MAX_SOCKETS. Every request below goes on a connection of its
 * own, as a new client's would.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import { after, describe, it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { PER_ENDPOINT_IN_FLIGHT } from '../../src/webhooks/webhook-dispatcher.js';
import { makeKey } from '../helpers/fleet.js';
import { sampleValue } from '../helpers/metrics.js';
import { type LogLine, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { type ConnectionTally, insertWebhookEndpoint, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-endpoint-row.js';

const DESCRIPTORS = 1024;
const WAIT_MS = 60_000;

type Answer = { status: number; body: string } | { error: string };

/** One request on a connection of its own (no keep-alive), answered or failed, within 10 s. */
function onNewConnection(baseUrl: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const answer = new Promise<Answer>((resolve) => {
    const request = http.request(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (error) => resolve({ error: error.message }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(options.body);
  });
  return withDeadline(answer, 10_000, `${path} to be answered`).catch((error: Error) => ({ error: error.message }));
}

interface Store {
  service: RunningService;
  key: string;
  receivers: WebhookReceiver[];
  /** The connections open to all the receivers at once. */
  connections: ConnectionTally;
  /** Makes `count` pets, 8 at a time, each on a new connection; answers the answers that were not a 201. */
  makePets(count: number): Promise<Answer[]>;
  metric(name: string, labels?: Record<string, string>): Promise<number | undefined>;
  close(): Promise<void>;
}

/** The real service under `ulimit -n`, with endpoints whose receivers drip their answers forever. */
async function startStore(dialect: 'sqlite' | 'postgres', options: { descriptors: number; endpoints: number; env?: Record<string, string> }): Promise<Store> {
  const place = await createEmptyDatabaseUrl(dialect);
  const connections: ConnectionTally = { open: 0, peak: 0, peakBeforeAnyClosed: 0, closed: 0 };
  const receivers = await Promise.all(Array.from({ length: options.endpoints }, () => startWebhookReceiver(() => 'drip', { connections })));
  const service = await spawnService({
    databaseUrl: place.url,
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', ...options.env },
    commandPrefix: ['bash', '-c', `ulimit -n ${options.descriptors} && exec "$@"`, 'bash'],
  });
  const { key } = await makeKey(place.url, 'sockets');
  const handle = createDb(place.url, { poolMax: 1 });
  try {
    for (const receiver of receivers) await insertWebhookEndpoint(handle.db, { url: receiver.url, events: ['pet.created'] });
  } finally {
    await handle.close();
  }
  const auth = { authorization: `Bearer ${key}` };
  return {
    service,
    key,
    receivers,
    connections,
    async makePets(count) {
      const failed: Answer[] = [];
      let next = 0;
      const maker = async () => {
        while (next < count) {
          const name = `Drip ${next++}`;
          const made = await onNewConnection(service.baseUrl, '/v1/pets', {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ name, categoryId: 1 }),
          });
          if (!('status' in made) || made.status !== 201) failed.push(made);
        }
      };
      await Promise.all(Array.from({ length: 8 }, maker));
      return failed;
    },
    async metric(name, labels = {}) {
      const scraped = await onNewConnection(service.baseUrl, '/metrics');
      return 'body' in scraped ? sampleValue(scraped.body, name, labels) : undefined;
    },
    async close() {
      await service.stop();
      for (const receiver of receivers) await receiver.close();
      await place.remove();
    },
  };
}

/** Asks for /readyz and a page of pets, each on a new connection, over and over until stopped; answers what was not a 200. */
function probe(store: Store): { stop(): Promise<{ answered: number; failures: string[] }> } {
  let stopped = false;
  let answered = 0;
  const failures: string[] = [];
  const running = (async () => {
    while (!stopped) {
      for (const [path, headers] of [
        ['/readyz', {}],
        ['/v1/pets?limit=1', { authorization: `Bearer ${store.key}` }],
      ] as const) {
        const answer = await onNewConnection(store.service.baseUrl, path, { headers });
        if ('status' in answer && answer.status === 200) answered++;
        else failures.push(`${path}: ${'status' in answer ? `${answer.status} ${answer.body.slice(0, 200)}` : answer.error}`);
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return { answered, failures };
    },
  };
}

const isWarning = (line: LogLine, pattern: RegExp) => line.level === 40 && typeof line.msg === 'string' && pattern.test(line.msg);

// The two dialects' suites run side by side (most of each is waiting for receivers and timeouts), each one test at a time.
describe('webhook sockets', { concurrency: ALL_DIALECTS.length }, () => {
  after(() => stopAllServices());
  for (const dialect of ALL_DIALECTS) {
    describeOnDialect(dialect, `webhook sockets under ulimit -n on ${dialect}`, { timeout: SUITE_STUCK_MS, concurrency: 1 }, () => {
      it(`receivers dripping their body forever, ulimit -n ${DESCRIPTORS} > while 400 pets are made, every request on a new connection is answered and /readyz stays 200`, async () => {
        const endpoints = 8;
        const store = await startStore(dialect, { descriptors: DESCRIPTORS, endpoints });
        try {
          const probes = probe(store);
          const failedPets = await store.makePets(400);
          // The first sends end at their timeout (15 s), their bodies never done, and the next ones
          // start: the probes run through a whole timeout of receivers holding every connection.
          const slots = endpoints * PER_ENDPOINT_IN_FLIGHT;
          await waitUntil(() => store.connections.closed >= slots, {
            deadlineMs: WAIT_MS,
            what: `${slots} connections to the receivers to be closed by the service`,
          });
          // Each is recorded as the 200 it got.
          await waitUntil(async () => ((await store.metric('animal_store_webhook_attempts_total', { outcome: 'succeeded' })) ?? 0) >= slots, {
            deadlineMs: WAIT_MS,
            everyMs: 250,
            what: `${slots} attempts to be recorded as succeeded`,
          });
          const { answered, failures } = await probes.stop();
          assert.deepEqual(failedPets, [], 'every pet is made');
          assert.deepEqual(failures, [], 'every probe is answered 200');
          assert.ok(answered > 0);
          // Until the first timeout no send's connection ends: each is one of the slots the dispatcher counts.
          assert.ok(
            store.connections.peakBeforeAnyClosed <= slots,
            `at most ${slots} connections to the receivers at once (got ${store.connections.peakBeforeAnyClosed})`,
          );
          assert.equal(await store.metric('animal_store_webhook_sends_refused_total', { reason: 'descriptors' }), 0);
          assert.equal(await store.metric('animal_store_webhook_attempts_total', { outcome: 'failed' }), 0);
        } finally {
          await store.close();
        }
      });

      it('WEBHOOK_MAX_SOCKETS=16, 24 endpoints > 16 connections to the receivers at most; the sends that wait for a socket are counted and logged at warn', async () => {
        const store = await startStore(dialect, { descriptors: DESCRIPTORS, endpoints: 24, env: { WEBHOOK_MAX_SOCKETS: '16' } });
        try {
          assert.deepEqual(await store.makePets(4), []);
          // 16 endpoints get a send each; the other 8 wait (none of their receivers hears from the service).
          await waitUntil(() => store.receivers.reduce((sum, receiver) => sum + receiver.received.length, 0) >= 16, {
            deadlineMs: WAIT_MS,
            what: '16 sends to arrive',
          });
          await waitUntil(async () => ((await store.metric('animal_store_webhook_sends_refused_total', { reason: 'sockets' })) ?? 0) >= 8, {
            deadlineMs: WAIT_MS,
            everyMs: 100,
            what: 'the sends of 8 endpoints to wait for a socket',
          });
          const warning = await store.service.waitForLog((line) => isWarning(line, /^webhook sends wait for a socket/), WAIT_MS);
          assert.equal(warning.maxSockets, 16);
          assert.equal(store.connections.peak, 16);
          assert.equal(store.receivers.filter((receiver) => receiver.received.length === 0).length, 8);
          const answer = await onNewConnection(store.service.baseUrl, '/readyz');
          assert.equal('status' in answer && answer.status, 200);
        } finally {
          await store.close();
        }
      });

      it('descriptors run out at connect (EMFILE) > the attempts fail, and are counted and logged at warn', async () => {
        const store = await startStore(dialect, { descriptors: DESCRIPTORS, endpoints: 8, env: { DATABASE_POOL_MAX: '2' } });
        const pid = store.service.process.pid!;
        const auth = { authorization: `Bearer ${store.key}`, 'content-type': 'application/json' };
        try {
          // One connection, kept alive, for the pets; the database's connections opened: then only a few descriptors are left.
          for (let i = 0; i < 4; i++) assert.equal((await fetch(`${store.service.baseUrl}/v1/pets?limit=1`, { headers: auth })).status, 200);
          const spare = 16;
          execFileSync('prlimit', ['--pid', String(pid), `--nofile=${readdirSync(`/proc/${pid}/fd`).length + spare}:`]);
          for (let i = 0; i < 8; i++)
            await fetch(`${store.service.baseUrl}/v1/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `Starved ${i}`, categoryId: 1 }) });
          const warning = await store.service.waitForLog((line) => isWarning(line, /^webhook connections failed for want of file descriptors/), WAIT_MS);
          assert.ok(Number(warning.count) >= 1);
          execFileSync('prlimit', ['--pid', String(pid), `--nofile=${DESCRIPTORS}:`]);
          assert.ok(((await store.metric('animal_store_webhook_sends_refused_total', { reason: 'descriptors' })) ?? 0) >= 1);
          await waitUntil(async () => ((await store.metric('animal_store_webhook_attempts_total', { outcome: 'failed' })) ?? 0) >= 1, {
            deadlineMs: WAIT_MS,
            everyMs: 100,
            what: 'an attempt to be recorded as failed (connection failed: EMFILE)',
          });
          assert.ok(store.connections.peak < 8 * PER_ENDPOINT_IN_FLIGHT, `fewer than every send reached a receiver (got ${store.connections.peak})`);
        } finally {
          await store.close();
        }
      });
    });
  }
});
