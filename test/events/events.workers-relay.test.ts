/**
 * Under `--workers N` without Redis, a commit in one worker wakes the feed's waiting readers in the
 * others through the primary's relay (events.fleet-channel.ts, `relayFeedChanges` as server.ts
 * installs it), not through the once-a-second check: here the workers' check runs once an hour, so
 * only the relay can wake them in time. The workers listen on ports of their own, so the test
 * knows which one it speaks to. This file is both: the test (the cluster's primary) and, forked by
 * it, each worker (an app on a port of its own over the shared database).
 */
import assert from 'node:assert/strict';
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { relayFeedChanges } from '../../src/events/events.fleet-channel.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { sampleValue } from '../helpers/metrics.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { openSse } from '../helpers/sse-client.js';
import { SUITE_STUCK_MS } from '../helpers/spawn-service.js';

/** The workers' check of the feed, and every timer of theirs that writes: once an hour, never within a test. */
const HOURLY_MS = 3_600_000;
const DATABASE_URL_VARIABLE = 'RELAY_TEST_DATABASE_URL';

interface Event {
  type: string;
  data: { id: number };
}

async function serveAsWorker(): Promise<void> {
  const handle = createDb(process.env[DATABASE_URL_VARIABLE]!, { poolMax: 2 });
  // A worker's own commits wake its readers too: none may come from its timers (the dispatcher's
  // fan-out, which moves its position past the new events; the keys' last use; the events'
  // purge), or they would stand in for the relay.
  const app = await buildApp({
    db: handle.db,
    config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000', KEY_LAST_USED_FLUSH_MS: String(HOURLY_MS) }),
    eventRecheckMs: HOURLY_MS,
    eventKeepAliveMs: HOURLY_MS,
    webhookDispatcher: { pollMs: HOURLY_MS },
    eventPurgeSchedule: { every: () => ({ stop() {} }) },
  });
  // A port of its own (not the cluster's shared one), so the test picks the worker it speaks to.
  await app.listen({ port: 0, host: '127.0.0.1', exclusive: true });
  process.on('message', (message) => {
    if (message === 'stop')
      void app
        .close()
        .then(() => handle.close())
        .then(() => process.exit(0));
  });
  process.send!({ port: (app.server.address() as AddressInfo).port });
}

if (cluster.isWorker) {
  await serveAsWorker();
} else {
  // The primary's relay, as server.ts installs it for --workers.
  relayFeedChanges();
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), execArgv: ['--import', 'tsx'], silent: true });

  for (const dialect of ALL_DIALECTS) {
    describeOnDialect(dialect, `the events feed under --workers 2 without Redis on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
      let database: TestDatabase;
      let key: string;
      const workers: { worker: Worker; baseUrl: string }[] = [];
      before(async () => {
        database = await createTestDatabase(dialect);
        key = (await issueApiKey(database.db, { name: 'relay' })).key;
        for (let i = 0; i < 2; i++) {
          const worker = cluster.fork({ [DATABASE_URL_VARIABLE]: database.url });
          // Its port, and not a relay message: a worker may commit while it starts (on PostgreSQL, a
          // round of the events sequencer), and its relay message then comes first.
          const port = await new Promise<number>((resolve) => {
            const listener = (message: { port?: unknown }) => {
              if (typeof message.port !== 'number') return;
              worker.off('message', listener);
              resolve(message.port);
            };
            worker.on('message', listener);
          });
          workers.push({ worker, baseUrl: `http://127.0.0.1:${port}` });
        }
      });
      after(async () => {
        for (const { worker } of workers) {
          const exited = once(worker, 'exit');
          worker.send('stop');
          await exited;
        }
        await database?.drop();
      });

      const headers = () => ({ authorization: `Bearer ${key}` });
      const createPet = async (name: string) => {
        const created = await fetch(`${workers[1]!.baseUrl}/v1/pets`, {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
        assert.equal(created.status, 201, await created.clone().text());
        return ((await created.json()) as { id: number }).id;
      };

      it('Attack: a long poll waiting in one worker, a pet created in the other > the relay wakes it (the check is an hour away)', async () => {
        // start=latest with wait: the position is fixed before the poll waits, and the poll counts
        // as waiting (the worker's own gauge) only after that, so the pet is created after it.
        const poll = fetch(`${workers[0]!.baseUrl}/v1/events?start=latest&wait=30`, { headers: headers() });
        const waiting = async () => sampleValue(await (await fetch(`${workers[0]!.baseUrl}/metrics`)).text(), 'animal_store_event_long_polls_waiting') === 1;
        await waitUntil(waiting, { deadlineMs: 10_000, what: 'the long poll never waited' });
        const id = await createPet('polled');
        const response = await withDeadline(poll, 15_000, 'the waiting worker was not woken by the relay');
        assert.equal(response.status, 200);
        assert.deepEqual(
          ((await response.json()) as Event[]).map((event) => [event.type, event.data.id]),
          [['pet.created', id]],
        );
      });

      it('Attack: a stream waiting in one worker, a pet created in the other > the relay wakes it (the check is an hour away)', async () => {
        // start=latest: the stream's position is fixed before it answers, so the pet comes after it
        // and only a wake-up makes the waiting worker read again.
        const stream = await openSse(workers[0]!.baseUrl, '/v1/events?start=latest', headers());
        try {
          assert.equal(stream.status, 200);
          const id = await createPet('streamed');
          const frames = await withDeadline(
            stream.framesUntil((frame) => frame.data !== undefined, 15_000),
            15_000,
            'the waiting worker was not woken by the relay',
          );
          assert.deepEqual(
            frames.filter((frame) => frame.data).map((frame) => [frame.event, (JSON.parse(frame.data!) as Event).data.id]),
            [['pet.created', id]],
          );
        } finally {
          stream.close();
        }
      });
    });
  }
}
