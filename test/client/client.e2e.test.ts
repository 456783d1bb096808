/**
 * The typed client (`@animal-store/client`) against the real service over a real port, on
 * SQLite and on PostgreSQL: typed calls, walks over several pages of pets and of orders,
 * AnimalStoreError's fields, retries that honour Retry-After, and a create whose answer is lost.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { AnimalStoreError, createAnimalStoreClient, type Pet } from '../../client/src/index.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';

async function createKey(databaseUrl: string, name: string, scopes: string[] = []): Promise<string> {
  const created = await runCli(['keys', 'create', '--name', name, ...scopes.flatMap((scope) => ['--scope', scope])], { DATABASE_URL: databaseUrl });
  assert.equal(created.code, 0, created.stderr);
  return created.stdout.trim().split('\n').at(-1)!;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `@animal-store/client on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
    let service: RunningService;
    let key: string;

    before(async () => {
      place = await createEmptyDatabaseUrl(dialect);
      const migrated = await runCli(['migrate'], { DATABASE_URL: place.url });
      assert.equal(migrated.code, 0, migrated.stderr);
      service = await spawnService({ databaseUrl: place.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });
      key = await createKey(place.url, 'client-tests');
    });
    after(async () => {
      await stopAllServices();
      await place?.remove();
    });

    it('client > create, find, update and delete a pet > typed answers match the service', async () => {
      const client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
      const created = await client.createPet({ name: 'Typed Rex', categoryId: 4 });
      assert.deepEqual(
        { name: created.name, categoryId: created.categoryId, status: created.status },
        { name: 'Typed Rex', categoryId: 4, status: 'available' },
      );
      assert.deepEqual(await client.findPet(created.id), created);
      const changed = await client.updatePet(created.id, { status: 'sold' });
      assert.equal(changed.status, 'sold');
      await client.deletePet(created.id);
      assert.equal(await client.findPet(created.id), undefined);
    });

    it('client > a refused create > AnimalStoreError carries the fields the service named in details', async () => {
      const client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
      const refused = await client.createPet({ name: '', categoryId: 0 }).catch((e: unknown) => e);
      assert.ok(refused instanceof AnimalStoreError && refused.code === 'validation_failed', String(refused));
      assert.deepEqual(refused.details.map((detail) => detail.field).sort(), ['body.categoryId', 'body.name']);
      assert.ok(refused.details.every((detail) => detail.message.length > 0));
    });

    it('client > API keys: create, read itself, list, revoke; a retried create and a key it lacks > AnimalStoreError with their codes', async () => {
      const client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
      const issued = await client.createApiKey({ name: 'made by the client', scopes: ['pets:read'] }, { idempotencyKey: 'client-key-1' });
      assert.deepEqual([issued.name, issued.scopes, issued.revokedAt], ['made by the client', ['pets:read'], null]);
      const made = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: issued.key });
      assert.deepEqual(await made.currentApiKey(), { id: issued.id, name: issued.name, prefix: issued.prefix, scopes: ['pets:read'], expiresAt: null });
      assert.deepEqual(await client.getApiKey(issued.id), Object.fromEntries(Object.entries(issued).filter(([name]) => name !== 'key')));
      assert.ok((await collect(client.apiKeys())).some((one) => one.id === issued.id && !('key' in one)));

      const replay = await client
        .createApiKey({ name: 'made by the client', scopes: ['pets:read'] }, { idempotencyKey: 'client-key-1' })
        .catch((e: unknown) => e);
      assert.ok(replay instanceof AnimalStoreError && replay.code === 'api_key_already_issued' && replay.status === 409, String(replay));
      const lacking = await made.createApiKey({ name: 'no', scopes: ['pets:read'] }).catch((e: unknown) => e);
      assert.ok(lacking instanceof AnimalStoreError && lacking.code === 'insufficient_scope', String(lacking));

      await client.revokeApiKey(issued.id);
      await client.revokeApiKey(issued.id);
      const refused = await made.currentApiKey().catch((e: unknown) => e);
      assert.ok(refused instanceof AnimalStoreError && refused.code === 'unauthorized', String(refused));
    });

    it('client > pets() over a listing of several pages > yields every matching pet once, in id order', async () => {
      const client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
      const categoryId = 7001;
      const made: Pet[] = [];
      for (let i = 0; i < 7; i++) made.push(await client.createPet({ name: `Paged ${i}`, categoryId }));
      let pages = 0;
      const counting = createAnimalStoreClient({
        baseUrl: service.baseUrl,
        apiKey: key,
        fetch: (request) => {
          pages++;
          return fetch(request);
        },
      });
      const walked = await collect(counting.pets({ categoryId, limit: 2 }));
      assert.deepEqual(walked, made);
      assert.equal(pages, 4);
    });

    it('client > orders() over several pages > yields every order of the listing', async () => {
      const client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
      const placed = [];
      for (let i = 0; i < 3; i++) {
        const pet = await client.createPet({ name: `For sale ${i}`, categoryId: 7002 });
        placed.push(await client.placeOrder({ petId: pet.id }));
      }
      const approved = await client.approveOrder(placed[0]!.id);
      assert.equal(approved.status, 'approved');
      const mine = new Set(placed.map((order) => order.id));
      const walked = (await collect(client.orders({ limit: 1 }))).filter((order) => mine.has(order.id));
      assert.deepEqual(
        walked.map((order) => [order.id, order.status]),
        placed.map((order, i) => [order.id, i === 0 ? 'approved' : 'placed']),
      );
    });

    it('client > a call the service refuses > throws AnimalStoreError with code, status, message and request id', async () => {
      const client = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
      const refused = await client.getOrder(987_654_321).then(
        () => assert.fail('expected a refusal'),
        (error: unknown) => error,
      );
      assert.ok(refused instanceof AnimalStoreError);
      assert.equal(refused.code, 'order_not_found');
      assert.equal(refused.status, 404);
      assert.match(refused.message, /987654321/);
      assert.match(refused.requestId ?? '', /^[0-9a-f-]{36}$/);
      const anonymous = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: 'not-a-key' });
      await assert.rejects(collect(anonymous.pets()), { name: 'AnimalStoreError', code: 'unauthorized', status: 401 });
    });

    it('client > nothing listens > throws AnimalStoreError network_error after its bounded attempts', async () => {
      const sleeps: number[] = [];
      const client = createAnimalStoreClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: key,
        retry: { maxAttempts: 3, sleep: async (ms) => void sleeps.push(ms) },
      });
      await assert.rejects(client.findPet(1), { name: 'AnimalStoreError', code: 'network_error', status: 0 });
      assert.equal(sleeps.length, 2);
    });

    it('client > a create whose answer is lost > is retried with the same Idempotency-Key and the service accepts the header', async () => {
      const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: service.port });
      try {
        const seen: string[] = [];
        const client = createAnimalStoreClient({
          baseUrl: proxy.baseUrl,
          apiKey: key,
          retry: { sleep: async () => {} },
          fetch: (request) => {
            seen.push(request.headers.get('idempotency-key') ?? '');
            return fetch(request);
          },
        });
        proxy.dropNextAnswers(1, 'POST');
        const created = await client.createPet({ name: 'Lost answer', categoryId: 7003 });
        assert.equal(proxy.dropped(), 1);
        assert.equal(seen.length, 2);
        assert.match(seen[0]!, /^[0-9a-f-]{36}$/);
        assert.equal(seen[1], seen[0]);
        assert.equal(created.name, 'Lost answer');
      } finally {
        await proxy.close();
      }
    });

    it('client > a create whose answer is lost > leaves exactly one pet', async () => {
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: service.port });
      try {
        const client = createAnimalStoreClient({ baseUrl: proxy.baseUrl, apiKey: key, retry: { sleep: async () => {} } });
        proxy.dropNextAnswers(1, 'POST');
        const created = await client.createPet({ name: 'Only once', categoryId: 7004 });
        const direct = createAnimalStoreClient({ baseUrl: service.baseUrl, apiKey: key });
        assert.deepEqual(await collect(direct.pets({ categoryId: 7004 })), [created]);
      } finally {
        await proxy.close();
      }
    });
  });
}

describeOnDialect('sqlite', '@animal-store/client under a rate limit', { timeout: SUITE_STUCK_MS }, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let service: RunningService;
  let key: string;

  before(async () => {
    place = await createEmptyDatabaseUrl('sqlite');
    const migrated = await runCli(['migrate'], { DATABASE_URL: place.url });
    assert.equal(migrated.code, 0, migrated.stderr);
    service = await spawnService({ databaseUrl: place.url, env: { RATE_LIMIT_PER_MINUTE: '2' } });
    key = await createKey(place.url, 'limited');
  });
  after(async () => {
    await stopAllServices();
    await place?.remove();
  });

  it('client > answers 429 with Retry-After > waits what the service says, bounded, then throws rate_limited', async () => {
    const sleeps: number[] = [];
    let sent = 0;
    const client = createAnimalStoreClient({
      baseUrl: service.baseUrl,
      apiKey: key,
      retry: { maxAttempts: 3, sleep: async (ms) => void sleeps.push(ms) },
      fetch: (request) => {
        sent++;
        return fetch(request);
      },
    });
    await client.findPet(1);
    await client.findPet(1);
    await assert.rejects(client.findPet(1), (error: unknown) => {
      assert.ok(error instanceof AnimalStoreError);
      assert.deepEqual([error.code, error.status], ['rate_limited', 429]);
      assert.ok(error.requestId);
      return true;
    });
    assert.equal(sent, 5);
    assert.equal(sleeps.length, 2);
    for (const ms of sleeps) assert.ok(ms > 0 && ms <= 60_000 && ms % 1000 === 0, `slept ${ms} ms, not a Retry-After in whole seconds`);
  });
});
