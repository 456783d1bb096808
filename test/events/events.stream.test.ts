/**
 * GET /v1/events with Accept: text/event-stream, over a real port: the frames, a resume with
 * Last-Event-ID that misses nothing and repeats nothing, Last-Event-ID over cursor, the cap per
 * key, the keep-alive comment, the end on shutdown (and a resume that gets the rest), a revoked
 * key, and every refusal as an ordinary JSON Error before the stream starts.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { issueApiKey, revokeKey } from '../../src/keys/keys.service.js';
import { sampleValue } from '../helpers/metrics.js';
import { cursorOf, nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { openSse, type SseFrame } from '../helpers/sse-client.js';

const json = { 'content-type': 'application/json' };

interface Event {
  id: number;
  type: string;
  data: { id: number; name?: string };
}

const eventOf = (frame: SseFrame) => JSON.parse(frame.data!) as Event;
const isEvent = (frame: SseFrame) => frame.data !== undefined;

async function startApp(dialect: 'sqlite' | 'postgres', keepAliveMs = 60_000): Promise<TestApp & { baseUrl: string }> {
  const t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '100000' }, hooks: { eventKeepAliveMs: keepAliveMs } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` });
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `GET /v1/events as a stream on ${dialect}`, {}, () => {
    let t: TestApp & { baseUrl: string };
    before(async () => {
      t = await startApp(dialect);
    });
    after(() => t.close());

    const createPet = async (name: string) => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name, categoryId: 3 } });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as number;
    };
    const latestCursor = async () =>
      cursorOf(nextLinkOf((await t.app.inject({ method: 'GET', url: '/v1/events?start=latest', headers: t.auth })).headers.link)!);
    const streams = async () => sampleValue(await t.app.metrics.render(), 'animal_store_event_streams_open');

    it('frames > id (the cursor after the event), event (its type), data (the Event JSON); headers say no caching, no buffering', async () => {
      const from = await latestCursor();
      const stream = await openSse(t.baseUrl, `/v1/events?cursor=${from}`, t.auth);
      try {
        assert.equal(stream.status, 200);
        assert.equal(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
        assert.equal(stream.headers['cache-control'], 'no-cache, no-transform');
        assert.equal(stream.headers['x-accel-buffering'], 'no');
        assert.deepEqual(await stream.next(), { retry: '1000' });
        const id = await createPet('Streamed');
        const [frame] = await stream.framesUntil(isEvent);
        assert.equal(frame!.event, 'pet.created');
        const event = eventOf(frame!);
        assert.deepEqual([event.type, event.data.id, event.data.name], ['pet.created', id, 'Streamed']);
        // The id is a cursor: the feed read from it starts after this event.
        const after = await t.app.inject({ method: 'GET', url: `/v1/events?cursor=${frame!.id}`, headers: t.auth });
        assert.equal(after.statusCode, 200, after.body);
        assert.deepEqual(after.json(), []);
        const before = await t.app.inject({ method: 'GET', url: `/v1/events?cursor=${from}`, headers: t.auth });
        assert.deepEqual(before.json(), [event]);
      } finally {
        stream.close();
      }
    });

    it('a reconnect with Last-Event-ID > resumes exactly after it: none missed, none twice', async () => {
      const from = await latestCursor();
      const first = await openSse(t.baseUrl, `/v1/events?cursor=${from}`, t.auth);
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (const name of names.slice(0, 3)) await createPet(name);
      const got = (await first.framesUntil((f) => isEvent(f) && eventOf(f).data.name === 'c')).filter(isEvent);
      first.close();
      for (const name of names.slice(3)) await createPet(name);
      const resumed = await openSse(t.baseUrl, `/v1/events`, { ...t.auth, 'last-event-id': got.at(-1)!.id! });
      try {
        got.push(...(await resumed.framesUntil((f) => isEvent(f) && eventOf(f).data.name === 'f')).filter(isEvent));
        assert.deepEqual(
          got.map((f) => eventOf(f).data.name),
          names,
        );
      } finally {
        resumed.close();
      }
    });

    it('Last-Event-ID and a cursor > Last-Event-ID wins', async () => {
      const early = await latestCursor();
      await createPet('skipped');
      const late = await latestCursor();
      const stream = await openSse(t.baseUrl, `/v1/events?cursor=${early}`, { ...t.auth, 'last-event-id': late });
      try {
        await createPet('seen');
        const [frame] = (await stream.framesUntil(isEvent)).filter(isEvent);
        assert.equal(eventOf(frame!).data.name, 'seen');
      } finally {
        stream.close();
      }
    });

    it('refusals before the stream starts > ordinary JSON errors', async () => {
      for (const [headers, path, status, code] of [
        [{ 'last-event-id': 'bogus' }, '/v1/events', 400, 'invalid_cursor'],
        [{ 'last-event-id': 'x'.repeat(10_000) }, '/v1/events', 400, 'invalid_cursor'],
        [{}, '/v1/events?cursor=bogus', 400, 'invalid_cursor'],
        [{}, '/v1/events?wait=31', 400, 'validation_failed'],
      ] as const) {
        const refused = await openSse(t.baseUrl, path, { ...t.auth, ...headers });
        assert.equal(refused.status, status);
        assert.match(String(refused.headers['content-type']), /^application\/json/);
        const body = JSON.parse(await refused.text()) as { code: string; status: number };
        assert.deepEqual([body.code, body.status], [code, status]);
      }
    });

    it(`Attack: a key's streams beyond EVENT_STREAMS_PER_KEY (5) > 429 too_many_streams with Retry-After, not counted as rate_limited; closing one frees a place`, async () => {
      const key = { authorization: `Bearer ${(await issueApiKey(t.database.db, { name: 'streams' })).key}` };
      const open = await Promise.all(Array.from({ length: 5 }, () => openSse(t.baseUrl, '/v1/events?start=latest', key)));
      try {
        assert.deepEqual(
          open.map((s) => s.status),
          [200, 200, 200, 200, 200],
        );
        const sixth = await openSse(t.baseUrl, '/v1/events?start=latest', key);
        assert.equal(sixth.status, 429);
        assert.equal(sixth.headers['retry-after'], '5');
        assert.equal((JSON.parse(await sixth.text()) as { code: string }).code, 'too_many_streams');
        // Attack: a 429 too_many_streams is no rate limit: the answer is counted, not as rate_limited.
        const counted = async () => sampleValue(await t.app.metrics.render(), 'animal_store_http_requests_total', { operation: 'listEvents', status: '429' });
        await waitUntil(async () => (await counted()) === 1, { deadlineMs: 5_000, what: 'the 429 answer was not counted' });
        assert.equal(sampleValue(await t.app.metrics.render(), 'animal_store_rate_limited_total', { operation: 'listEvents' }), undefined);
        // Another key is not refused.
        const other = await openSse(t.baseUrl, '/v1/events?start=latest', t.auth);
        assert.equal(other.status, 200);
        other.close();
        open.pop()!.close();
        await waitUntil(async () => (await streams()) === 4, { deadlineMs: 5_000, what: 'a closed stream kept its place' });
        const again = await openSse(t.baseUrl, '/v1/events?start=latest', key);
        assert.equal(again.status, 200);
        open.push(again);
      } finally {
        for (const stream of open) stream.close();
      }
      await waitUntil(async () => (await streams()) === 0, { deadlineMs: 5_000, what: 'closed streams kept their places' });
    });

    it('a key revoked while it streams > the stream ends before the next event', async () => {
      const issued = await issueApiKey(t.database.db, { name: 'revoked' });
      const stream = await openSse(t.baseUrl, '/v1/events?start=latest', { authorization: `Bearer ${issued.key}` });
      assert.equal(stream.status, 200);
      await revokeKey(t.database.db, issued.id);
      // Past the key cache (KEY_CACHE_TTL_MS), which answers for a key that long without Redis.
      t.clock.now += 60_000;
      const ended = (async () => {
        for (let frame = await stream.next(); frame; frame = await stream.next()) if (isEvent(frame)) await createPet('after revocation');
      })();
      await createPet('after revocation');
      await withDeadline(ended, 15_000, 'the stream of a revoked key went on');
    });
  });

  describeOnDialect(dialect, `GET /v1/events as a stream, keep-alive and stop, on ${dialect}`, {}, () => {
    it('an idle stream > writes a comment line every keep-alive interval', async () => {
      const t = await startApp(dialect, 20);
      try {
        const stream = await openSse(t.baseUrl, '/v1/events?start=latest', t.auth);
        await stream.framesUntil((f) => f.comment === 'keep-alive');
        stream.close();
      } finally {
        await t.close();
      }
    });

    it('the app stops while a stream is open > the stream ends; a resume from its last id elsewhere gets the rest', async () => {
      const t = await startApp(dialect);
      const stream = await openSse(t.baseUrl, '/v1/events', t.auth);
      const create = async (name: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name, categoryId: 1 } })).json().id as number;
      const before = await create('before stop');
      const [frame] = (await stream.framesUntil(isEvent)).filter(isEvent);
      assert.equal(eventOf(frame!).data.id, before);
      const closed = t.app.close();
      await withDeadline(stream.ended, 5_000, 'the stream stayed open through the stop');
      await closed;
      // Another instance on the same data: the resume sees what came after, once.
      const handle = createDb(t.database.url);
      const next = await buildApp({ db: handle.db, config: loadConfig({ LOG_LEVEL: 'silent' }) });
      try {
        const later = (
          await next.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: 'after stop', categoryId: 1 } })
        ).json().id as number;
        await next.listen({ port: 0, host: '127.0.0.1' });
        const resumed = await openSse(`http://127.0.0.1:${(next.server.address() as AddressInfo).port}`, '/v1/events', {
          ...t.auth,
          'last-event-id': frame!.id!,
        });
        const [rest] = (await resumed.framesUntil(isEvent)).filter(isEvent);
        assert.equal(eventOf(rest!).data.id, later);
        resumed.close();
      } finally {
        await next.close();
        await handle.close();
        await t.database.drop();
      }
    });
  });
}
