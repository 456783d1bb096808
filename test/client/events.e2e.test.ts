/**
 * `client.events()` against the real service over a real port, on SQLite and on PostgreSQL:
 * following the feed while writers commit concurrently (every event once, in the database's
 * order), resuming from the cursor yielded after any event (inside an answer too), `start:
 * 'latest'` and type filters, 410 `cursor_expired` after a purge, a 503 retried, an abort that
 * ends the loop quietly, and the long poll `wait` once the service knows it.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  type AnimalStoreClient,
  AnimalStoreError,
  createAnimalStoreClient,
  DEFAULT_WAIT_SECONDS,
  type FeedItem,
  type FollowEventsOptions,
} from '../../client/src/index.js';
import { databaseNowMs } from '../../src/db/dialect.js';
import { purgeEventsBefore } from '../../src/events/events.retention.js';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';

const DAY_MS = 86_400_000;

/** The first `count` items of an endless iterator; leaving the loop ends it. */
async function take<T>(items: AsyncIterable<T>, count: number): Promise<T[]> {
  const taken: T[] = [];
  if (count === 0) return taken;
  for await (const item of items) {
    taken.push(item);
    if (taken.length === count) break;
  }
  return taken;
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `@animal-store/client events() on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let database: TestDatabase;
    let service: RunningService;
    let key: string;
    let client: AnimalStoreClient;

    before(async () => {
      database = await createTestDatabase(dialect);
      service = await spawnService({ databaseUrl: database.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });
      const created = await runCli(['keys', 'create', '--name', 'events-client'], { DATABASE_URL: database.url });
      assert.equal(created.code, 0, created.stderr);
      key = created.stdout.trim().split('\n').at(-1)!;
      client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
    });
    after(async () => {
      await stopAllServices();
      await database?.drop();
    });

    /** Every stored event id, in the feed's order (the database's positions). */
    const storedIds = async () => (await database.db.selectFrom('events').select('id').orderBy('position').execute()).map((row) => row.id);
    const createPets = async (count: number, categoryId: number) => {
      for (let i = 0; i < count; i++) await client.createPet({ name: `Feed ${i}`, categoryId });
    };

    /** The first event of `start: 'latest'`, once the service has answered where "latest" is (so a write after this resolves comes after it). */
    const nextEventFromNow = async (options: Pick<FollowEventsOptions, 'types'>): Promise<{ first: Promise<FeedItem[]> }> => {
      let answered = 0;
      const counting = createAnimalStoreClient({
        baseUrl: service.baseUrl,
        apiKey: key,
        fetch: async (request) => {
          const response = await fetch(request);
          answered++;
          return response;
        },
      });
      const first = take(counting.events({ ...options, start: 'latest', wait: 0, pollIntervalMs: 20 }), 1);
      await waitUntil(() => answered >= 1, { deadlineMs: 10_000, everyMs: 5, what: 'the answer to start=latest' });
      return { first };
    };

    it('events() > followed from the start while 4 writers commit concurrently > yields every committed event once, in the database order', async () => {
      await purgeEventsBefore(database.db, (await databaseNowMs(database.db)) + DAY_MS);
      const controller = new AbortController();
      const seen: number[] = [];
      let expected = Number.POSITIVE_INFINITY;
      const reading = (async () => {
        for await (const { event } of client.events({ limit: 3, pollIntervalMs: 20, signal: controller.signal })) {
          seen.push(event.id);
          if (seen.length >= expected) controller.abort();
        }
      })();
      await Promise.all(
        Array.from({ length: 4 }, async (_, writer) => {
          for (let i = 0; i < 6; i++) {
            const pet = await client.createPet({ name: `Writer ${writer} pet ${i}`, categoryId: 8000 + writer });
            if (i % 2 === 0) await client.placeOrder({ petId: pet.id });
          }
        }),
      );
      const stored = await storedIds();
      expected = stored.length;
      if (seen.length >= expected) controller.abort();
      await withDeadline(reading, 30_000, `the reader to see ${expected} events (saw ${seen.length})`);
      assert.equal(expected, 4 * (6 + 3 * 2), 'a pet.created per pet; order.placed and pet.updated per order');
      assert.deepEqual(seen, stored);
    });

    it('events() > resumed from the cursor yielded after any event, inside an answer or at its end > yields exactly the events after it', async () => {
      await purgeEventsBefore(database.db, (await databaseNowMs(database.db)) + DAY_MS);
      await createPets(7, 8100);
      // From the start of the feed (no cursor): its seven events, in answers of three.
      const walked = await take(client.events({ limit: 3 }), 7);
      assert.equal(walked.length, 7);
      for (const [index, { cursor }] of walked.entries()) {
        const rest = walked.slice(index + 1).map((item) => item.event.id);
        const resumed = await take(client.events({ cursor, limit: 3 }), rest.length);
        assert.deepEqual(
          resumed.map((item) => item.event.id),
          rest,
          `resumed after event ${index + 1} of 7 (${cursor})`,
        );
      }
      // Inside an answer the cursor is the client's (answer start, count, id); at an answer's end, the service's own.
      // The first answer without a cursor is of one event: there is no cursor to resume inside it from.
      assert.deepEqual(
        walked.map((item) => item.cursor.includes('~')),
        [false, true, true, false, true, true, false],
      );
      assert.match(walked[1]!.cursor, /~1~\d+$/);
    });

    it('events() > a resume cursor whose event is not the one at its position, or not a cursor > refused as invalid_cursor, never a silent skip', async () => {
      const start = await latestCursor(client);
      await createPets(1, 8150);
      const pet = await client.createPet({ name: 'Ordered', categoryId: 8150 });
      await client.placeOrder({ petId: pet.id });
      const [, second] = await take(client.events({ cursor: start, limit: 10 }), 2);
      const mismatched = second!.cursor.replace(/~(\d+)$/, '~999999');
      await assert.rejects(take(client.events({ cursor: mismatched }), 1), { name: 'AnimalStoreError', code: 'invalid_cursor' });
      await assert.rejects(take(client.events({ cursor: 'not~a~cursor' }), 1), { name: 'AnimalStoreError', code: 'invalid_cursor' });
    });

    it("events() > start: 'latest' with a type filter > yields only the later events of those types", async () => {
      await createPets(2, 8200);
      const { first } = await nextEventFromNow({ types: ['order.*'] });
      const pet = await client.createPet({ name: 'Sold soon', categoryId: 8200 });
      const order = await client.placeOrder({ petId: pet.id });
      const [item] = await withDeadline(first, 20_000, 'the order.placed event');
      assert.equal(item!.event.type, 'order.placed');
      assert.equal((item!.event.data as { id: number }).id, order.id);
    });

    it('events() > a cursor whose next events were purged > throws AnimalStoreError cursor_expired (410); start: latest goes on', async () => {
      const start = await latestCursor(client);
      await createPets(2, 8300);
      await purgeEventsBefore(database.db, (await databaseNowMs(database.db)) + DAY_MS);
      const expired = await take(client.events({ cursor: start }), 1).then(
        () => assert.fail('expected cursor_expired'),
        (error: unknown) => error,
      );
      assert.ok(expired instanceof AnimalStoreError);
      assert.deepEqual([expired.code, expired.status], ['cursor_expired', 410]);
      const { first: next } = await nextEventFromNow({});
      const pet = await client.createPet({ name: 'After the purge', categoryId: 8300 });
      assert.deepEqual((await withDeadline(next, 20_000, 'the next event'))[0]!.event.data, pet);
    });

    it('events() > the service answers 503 once > retried with the client retries, no event lost or repeated', async () => {
      const start = await latestCursor(client);
      await createPets(3, 8400);
      let refused = 0;
      const flaky = createAnimalStoreClient({
        baseUrl: service.baseUrl,
        apiKey: key,
        retry: { sleep: async () => {} },
        fetch: (request) => {
          if (refused === 0 && new URL(request.url).pathname === '/v1/events' && new URL(request.url).searchParams.get('limit') === '1') {
            refused++;
            return Promise.resolve(
              Response.json({ code: 'service_unavailable', message: 'try again', status: 503 }, { status: 503, headers: { 'retry-after': '0' } }),
            );
          }
          return fetch(request);
        },
      });
      const direct = await take(client.events({ cursor: start }), 3);
      const retried = await take(flaky.events({ cursor: start, limit: 1 }), 3);
      assert.equal(refused, 1);
      assert.deepEqual(
        retried.map((item) => item.event),
        direct.map((item) => item.event),
      );
    });

    it('events() > wait: 0, the signal aborts while the caught-up feed pauses > the loop ends without an error', async () => {
      const controller = new AbortController();
      let requests = 0;
      const counting = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key, fetch: (request) => (requests++, fetch(request)) });
      const loop = (async () => {
        const items: FeedItem[] = [];
        for await (const item of counting.events({ start: 'latest', wait: 0, pollIntervalMs: 600_000, signal: controller.signal })) items.push(item);
        return items;
      })();
      // Two requests: start=latest, then the one that finds nothing and pauses for ten minutes.
      await waitUntil(() => requests >= 2, { deadlineMs: 10_000, everyMs: 5, what: 'the second request' });
      controller.abort();
      assert.deepEqual(await withDeadline(loop, 10_000, 'the loop to end on abort'), []);
    });

    it('events() > wait: 10 answered at once with nothing (capped, or a stopping instance) > pauses pollIntervalMs instead of asking again at once', async () => {
      const controller = new AbortController();
      const sent: URL[] = [];
      let answered = 0;
      // The service here answers at once: the wait=10 the client sends is taken off on the way.
      const answeredAtOnce = createAnimalStoreClient({
        baseUrl: service.baseUrl,
        apiKey: key,
        fetch: async (request) => {
          const url = new URL(request.url);
          sent.push(new URL(url));
          url.searchParams.delete('wait');
          const response = await fetch(new Request(url, request));
          answered++;
          return response;
        },
      });
      const loop = take(answeredAtOnce.events({ start: 'latest', wait: 10, pollIntervalMs: 600_000, signal: controller.signal }), 1);
      await waitUntil(() => answered >= 2, { deadlineMs: 10_000, everyMs: 5, what: 'the second answer' });
      // A few round trips to the same service: a loop asking again at once would have sent many more.
      await createPets(3, 8450);
      assert.equal(sent.length, 2);
      assert.ok(
        sent.every((url) => url.searchParams.get('wait') === '10'),
        'wait=10 on every request',
      );
      controller.abort();
      assert.deepEqual(await withDeadline(loop, 10_000, 'the loop to end on abort'), []);
    });

    it('events() > no wait given > each request is a long poll of 25 s (wait=25)', async () => {
      const controller = new AbortController();
      const urls: URL[] = [];
      const recording = createAnimalStoreClient({
        baseUrl: service.baseUrl,
        apiKey: key,
        fetch: (request) => (urls.push(new URL(request.url)), fetch(request)),
      });
      const next = take(recording.events({ cursor: await latestCursor(client), signal: controller.signal }), 1);
      await waitUntil(() => urls.length >= 1, { deadlineMs: 10_000, everyMs: 5, what: 'the long poll' });
      const pet = await client.createPet({ name: 'Long polled by default', categoryId: 8501 });
      assert.deepEqual((await withDeadline(next, 30_000, 'the long-polled event'))[0]!.event.data, pet);
      assert.deepEqual(
        urls.map((url) => url.searchParams.get('wait')),
        urls.map(() => String(DEFAULT_WAIT_SECONDS)),
      );
      assert.equal(DEFAULT_WAIT_SECONDS, 25);
    });

    it('events() > wait: 10 (long poll) > sent as wait=10; an event written while the request is held ends it', async () => {
      const urls: URL[] = [];
      const recording = createAnimalStoreClient({
        baseUrl: service.baseUrl,
        apiKey: key,
        fetch: (request) => (urls.push(new URL(request.url)), fetch(request)),
      });
      // From a cursor, not start=latest, so the event below comes after the position whenever the request arrives.
      // A pause of ten minutes: an answer the service did not hold would stall the test.
      const next = take(recording.events({ cursor: await latestCursor(client), wait: 10, pollIntervalMs: 600_000 }), 1);
      await waitUntil(() => urls.length >= 1, { deadlineMs: 10_000, everyMs: 5, what: 'the long poll' });
      const pet = await client.createPet({ name: 'Long polled', categoryId: 8500 });
      assert.deepEqual((await withDeadline(next, 30_000, 'the long-polled event'))[0]!.event.data, pet);
      assert.ok(
        urls.every((url) => url.searchParams.get('wait') === '10'),
        'wait=10 on every request',
      );
      assert.ok(urls.length <= 2, `answered by the held request: ${urls.length} requests`);
    });
  });
}

/** A cursor after the newest event, from the service's own Link. */
async function latestCursor(client: AnimalStoreClient): Promise<string> {
  const { response } = await client.raw.GET('/events', { params: { query: { start: 'latest' } } });
  const cursor = /[?&]cursor=([^&>]+)/.exec(response.headers.get('link') ?? '')?.[1];
  assert.ok(cursor, 'the Link of start=latest has a cursor');
  return decodeURIComponent(cursor);
}
