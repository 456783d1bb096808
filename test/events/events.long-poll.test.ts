/**
 * GET /v1/events?wait=N, the long poll: at once when events are there; woken by a commit of the
 * same app (with the once-a-second check turned off, so only the commit can wake it), by another
 * process's commit over Redis, and by the check alone; an empty answer with its Link when nothing
 * came; the waiter released when the client leaves or the app stops; hostile values refused.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { sampleValue } from '../helpers/metrics.js';
import { nextLinkOf } from '../helpers/pages.js';
import { NO_REDIS, TEST_REDIS_URL, testNamespace } from '../helpers/redis.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';

/** Never, in a test: only a commit (or a message) can wake a waiter. */
const NO_RECHECK_MS = 3_600_000;
const json = { 'content-type': 'application/json' };

interface Event {
  type: string;
  data: { id: number };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `GET /v1/events?wait=N on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { env: { EVENT_STREAMS_PER_KEY: '2' }, hooks: { eventRecheckMs: NO_RECHECK_MS } });
    });
    after(() => t.close());

    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
    const createPet = async (name = 'Rex') => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name, categoryId: 3 } });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as number;
    };
    const waiting = async () => sampleValue(await t.app.metrics.render(), 'animal_store_event_long_polls_waiting');
    const latest = async () => nextLinkOf((await get('/v1/events?start=latest')).headers.link)!;

    it('with events after the cursor > answers them at once', async () => {
      const from = await latest();
      const id = await createPet();
      const response = await withDeadline(get(`${from}&wait=30`), 10_000, 'a long poll with an event to answer did not answer at once');
      assert.equal(response.statusCode, 200);
      assert.deepEqual(
        (response.json() as Event[]).map((e) => [e.type, e.data.id]),
        [['pet.created', id]],
      );
    });

    it('a pet created through the same app while it waits > answers its event (the commit wakes it)', async () => {
      const from = await latest();
      const poll = get(`${from}&wait=30`);
      await waitUntil(async () => (await waiting()) === 1, { deadlineMs: 10_000, what: 'the long poll never waited' });
      const id = await createPet();
      const response = await withDeadline(poll, 10_000, 'the commit did not wake the long poll');
      assert.deepEqual(
        (response.json() as Event[]).map((e) => [e.type, e.data.id]),
        [['pet.created', id]],
      );
      assert.ok(nextLinkOf(response.headers.link));
      assert.equal(await waiting(), 0);
    });

    it('start=latest with wait > answers only the events after the newest one', async () => {
      await createPet('before');
      const poll = get('/v1/events?start=latest&wait=30');
      await waitUntil(async () => (await waiting()) === 1, { deadlineMs: 10_000, what: 'the long poll never waited' });
      const id = await createPet('after');
      const response = await withDeadline(poll, 10_000, 'the commit did not wake the long poll');
      assert.deepEqual(
        (response.json() as Event[]).map((e) => e.data.id),
        [id],
      );
    });

    it('a type filter > keeps waiting past other types, then answers its own', async () => {
      const petId = await createPet();
      const from = nextLinkOf((await get('/v1/events?start=latest&type=order.*')).headers.link)!;
      const poll = get(`${from}&wait=30`);
      await waitUntil(async () => (await waiting()) === 1, { deadlineMs: 10_000, what: 'the long poll never waited' });
      await createPet('other');
      await waitUntil(async () => (await waiting()) === 1, { deadlineMs: 10_000, what: 'the long poll stopped waiting' });
      const order = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId } });
      assert.equal(order.statusCode, 201);
      const response = await withDeadline(poll, 10_000, 'the order did not wake the filtered long poll');
      assert.deepEqual(
        (response.json() as Event[]).map((e) => e.type),
        ['order.placed'],
      );
    });

    it('wait=1 and no event > answers [] and the Link at the same position', async () => {
      const from = await latest();
      const response = await get(`${from}&wait=1`);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), []);
      assert.equal(nextLinkOf(response.headers.link), from);
    });

    it('more long polls of one key than EVENT_STREAMS_PER_KEY > the next is answered at once', async () => {
      const from = await latest();
      const polls = [get(`${from}&wait=30`), get(`${from}&wait=30`)];
      await waitUntil(async () => (await waiting()) === 2, { deadlineMs: 10_000, what: 'the long polls never waited' });
      const third = await withDeadline(get(`${from}&wait=30`), 10_000, 'the long poll beyond the cap waited');
      assert.deepEqual(third.json(), []);
      await createPet();
      for (const poll of await Promise.all(polls)) assert.equal((poll.json() as Event[]).length, 1);
    });

    it('hostile wait values > 400 validation_failed', async () => {
      for (const value of ['31', '-1', 'abc', '1.5', '', '1e1']) {
        assertErrorBody(await get(`/v1/events?wait=${value}`), { status: 400, code: 'validation_failed', message: /wait/ });
      }
    });

    it('a client that hangs up while waiting > its waiter is released', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const from = await latest();
      const client = request(`http://127.0.0.1:${port}${from}&wait=30`, { headers: t.auth, agent: false });
      client.on('error', () => {});
      client.end();
      await waitUntil(async () => (await waiting()) === 1, { deadlineMs: 10_000, what: 'the long poll never waited' });
      client.destroy();
      await waitUntil(async () => (await waiting()) === 0, { deadlineMs: 5_000, what: 'the waiter of a client gone was kept' });
    });
  });

  describeOnDialect(dialect, `GET /v1/events?wait=N when the app stops, on ${dialect}`, {}, () => {
    it('a waiting long poll > answers [] with its Link at once, so the client just continues', async () => {
      const t = await createTestApp(dialect, { hooks: { eventRecheckMs: NO_RECHECK_MS } });
      try {
        const from = nextLinkOf((await t.app.inject({ method: 'GET', url: '/v1/events?start=latest', headers: t.auth })).headers.link)!;
        const poll = t.app.inject({ method: 'GET', url: `${from}&wait=30`, headers: t.auth });
        await waitUntil(async () => sampleValue(await t.app.metrics.render(), 'animal_store_event_long_polls_waiting') === 1, {
          deadlineMs: 10_000,
          what: 'the long poll never waited',
        });
        const closing = t.app.close();
        const response = await withDeadline(poll, 5_000, 'the long poll kept waiting through the stop');
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json(), []);
        assert.equal(nextLinkOf(response.headers.link), from);
        await closing;
      } finally {
        await t.database.drop();
      }
    });
  });

  describeOnDialect(dialect, `GET /v1/events?wait=N across two apps on one database (two processes' worth), on ${dialect}`, {}, () => {
    let writer: TestApp;
    let readerHandle: DbHandle;
    const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
    const namespace = testNamespace();
    before(async () => {
      writer = await createTestApp(dialect);
    });
    after(async () => {
      for (const app of apps) await app.close();
      await readerHandle?.close();
      await writer.close();
      if (TEST_REDIS_URL) await namespace.removeKeys(TEST_REDIS_URL);
    });

    /** A second app on its own connection to the same data: the first one's commits are not its own. */
    const readerApp = async (env: Record<string, string>, recheckMs: number) => {
      readerHandle ??= createDb(writer.database.url, { poolMax: 2 });
      const app = await buildApp({ db: readerHandle.db, config: loadConfig({ LOG_LEVEL: 'silent', ...env }), eventRecheckMs: recheckMs });
      await app.ready();
      apps.push(app);
      return app;
    };
    const pollAfterWrite = async (reader: Awaited<ReturnType<typeof buildApp>>) => {
      const from = nextLinkOf((await reader.inject({ method: 'GET', url: '/v1/events?start=latest', headers: writer.auth })).headers.link)!;
      const poll = reader.inject({ method: 'GET', url: `${from}&wait=30`, headers: writer.auth });
      await waitUntil(async () => sampleValue(await reader.metrics.render(), 'animal_store_event_long_polls_waiting') === 1, {
        deadlineMs: 10_000,
        what: 'the long poll never waited',
      });
      const created = await writer.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...writer.auth, ...json },
        payload: { name: 'Elsewhere', categoryId: 1 },
      });
      assert.equal(created.statusCode, 201);
      const response = await withDeadline(poll, 10_000, "the other app's commit never woke the long poll");
      assert.deepEqual(
        (response.json() as Event[]).map((e) => e.data.id),
        [created.json().id],
      );
    };

    it('the other app commits, no message > the once-a-second check wakes it', async () => {
      await pollAfterWrite(await readerApp({}, 50));
    });

    describe('with Redis', { skip: NO_REDIS }, () => {
      it('the other app commits > its message wakes the waiter (the check turned off)', async () => {
        const env = { REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: namespace.prefix };
        const publisher = await buildApp({ db: writer.database.db, config: loadConfig({ LOG_LEVEL: 'silent', ...env }) });
        await publisher.ready();
        apps.push(publisher);
        const reader = await readerApp(env, NO_RECHECK_MS);
        // The subscription is made when the app is built; a first message proves it is in place.
        await waitUntil(
          async () => {
            const from = nextLinkOf((await reader.inject({ method: 'GET', url: '/v1/events?start=latest', headers: writer.auth })).headers.link)!;
            const poll = reader.inject({ method: 'GET', url: `${from}&wait=1`, headers: writer.auth });
            await publisher.inject({ method: 'POST', url: '/v1/pets', headers: { ...writer.auth, ...json }, payload: { name: 'Warm-up', categoryId: 1 } });
            return ((await poll).json() as Event[]).length > 0;
          },
          { deadlineMs: 10_000, what: 'the subscription never heard a message' },
        );
        const from = nextLinkOf((await reader.inject({ method: 'GET', url: '/v1/events?start=latest', headers: writer.auth })).headers.link)!;
        const poll = reader.inject({ method: 'GET', url: `${from}&wait=30`, headers: writer.auth });
        await waitUntil(async () => sampleValue(await reader.metrics.render(), 'animal_store_event_long_polls_waiting') === 1, {
          deadlineMs: 10_000,
          what: 'the long poll never waited',
        });
        const created = await publisher.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...writer.auth, ...json },
          payload: { name: 'Published', categoryId: 1 },
        });
        const response = await withDeadline(poll, 10_000, 'the Redis message never woke the long poll');
        assert.deepEqual(
          (response.json() as Event[]).map((e) => e.data.id),
          [created.json().id],
        );
      });
    });
  });
}
