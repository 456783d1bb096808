/**
 * End to end: the built command (`dist/cli.js`) in real child processes, real HTTP on a real
 * port, a real database. No mocks, no inject(): what an operator types and what a client
 * receives. The whole file runs once per dialect (a SQLite file in a temporary folder; a fresh
 * PostgreSQL schema when TEST_DATABASE_URL is set, else it shows as skipped) with the same assertions,
 * so every behaviour is shown to be the same on both. `npm test` builds dist/ first.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, sqlitePathOf } from '../../src/db/create-db.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { type RunningService, runCli, spawnService, stopAllServices } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';

const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{43}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: 'available' | 'pending' | 'sold';
}

interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  text: string;
}

interface CallOptions {
  /** A key sent as `Authorization: Bearer <key>`. */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is (with the content type of `headers`, if any). */
  body?: unknown;
}

/** Unique names and category ids, so each test recognises its own pets among all the others. */
let sequence = 0;
const unique = (label: string) => `${label}-${process.pid}-${++sequence}`;
const uniqueCategory = () => 100_000 + Math.floor(Math.random() * 1_000_000) * 100 + (++sequence % 100);

async function call(service: RunningService, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers,
    signal: AbortSignal.timeout(10_000),
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let parsed: unknown;
  if (contentType.startsWith('application/json') && text !== '') parsed = JSON.parse(text);
  // Every answer carries a request id; every JSON answer is uncacheable and not to be sniffed.
  assert.ok(response.headers.get('x-request-id'), `${method} ${path}: no X-Request-Id`);
  if (contentType.startsWith('application/json')) {
    assert.equal(response.headers.get('cache-control'), 'no-store', `${method} ${path}: cache-control`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${method} ${path}: x-content-type-options`);
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

async function createPet(service: RunningService, key: string, pet: { name?: string; categoryId?: number; status?: Pet['status'] } = {}): Promise<Pet> {
  const answer = await call(service, 'POST', '/v1/pets', { key, body: { name: pet.name ?? unique('pet'), categoryId: pet.categoryId ?? uniqueCategory(), ...(pet.status ? { status: pet.status } : {}) } });
  assert.equal(answer.status, 201, answer.text);
  return answer.body as Pet;
}

const nextLinkOf = (answer: Answer) => /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];

/** Follows `Link: <…>; rel="next"` from `path` to the last page; answers every page's pets. */
async function walk(service: RunningService, key: string, path: string): Promise<{ pets: Pet[]; pages: Pet[][] }> {
  const pages: Pet[][] = [];
  let next: string | undefined = path;
  while (next !== undefined) {
    assert.ok(pages.length < 10_000, 'the walk does not end');
    const answer = await call(service, 'GET', next, { key });
    assert.equal(answer.status, 200, answer.text);
    assert.ok(Array.isArray(answer.body));
    pages.push(answer.body as Pet[]);
    next = nextLinkOf(answer);
  }
  return { pets: pages.flat(), pages };
}

async function createKey(databaseUrl: string, args: string[] = []): Promise<string> {
  const created = await runCli(['keys', 'create', '--name', unique('key'), ...args], { DATABASE_URL: databaseUrl });
  assert.equal(created.code, 0, created.stderr);
  const key = created.stdout.trimEnd().split('\n').at(-1) ?? '';
  assert.match(key, KEY_PATTERN);
  return key;
}

interface ListedKey {
  id: number;
  name: string;
  prefix: string;
  revokedAt: string | null;
  expiresAt: string | null;
  scopes: string[];
}

async function listKeysJson(databaseUrl: string): Promise<ListedKey[]> {
  const listed = await runCli(['keys', 'list', '--json'], { DATABASE_URL: databaseUrl });
  assert.equal(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout) as ListedKey[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of ALL_DIALECTS) {
  // A safety net: a hung process or request fails the file instead of stalling `npm test`.
  describeOnDialect(dialect, `animal-store serve on ${dialect}`, { timeout: 120_000 }, () => {
    /** Every place for data this suite made (SQLite folders, PostgreSQL schemas), removed in `after`. */
    const places: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>[] = [];
    /** A DATABASE_URL naming a new, empty place for data on this dialect; for `before` hooks. */
    const newDatabaseUrl = async (): Promise<string> => {
      const place = await createEmptyDatabaseUrl(dialect);
      places.push(place);
      return place.url;
    };

    // The server most tests talk to, on its own database, with a key made by the CLI.
    let databaseUrl: string;
    let server: RunningService;
    let key: string;

    before(async () => {
      databaseUrl = await newDatabaseUrl();
      key = await createKey(databaseUrl);
      server = await spawnService({ databaseUrl });
    });

    after(async () => {
      // Whatever failed, no child process survives this suite, and no database either.
      await stopAllServices();
      const removals = await Promise.allSettled(places.map((place) => place.remove()));
      const failed = removals.filter((removal) => removal.status === 'rejected');
      if (failed.length > 0) throw new AggregateError(failed.map((removal) => removal.reason), `${failed.length} test database(s) were not removed`);
    });

    describe('when an operator creates a key with the CLI', () => {
      it('answers the plaintext key alone on the last stdout line, and the information on stderr', async () => {
        const name = unique('cli');
        const created = await runCli(['keys', 'create', '--name', name], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        const lines = created.stdout.trimEnd().split('\n');
        const plaintext = lines.at(-1) ?? '';
        assert.match(plaintext, KEY_PATTERN);
        assert.ok(created.stderr.includes(name), `stderr names the key: ${created.stderr}`);
        assert.ok(!created.stderr.includes(plaintext), 'stderr does not repeat the key');

        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key: plaintext });
        assert.equal(answer.status, 200, 'the new key works at once on a running server');
      });
    });

    describe('when an operator lists keys with the CLI', () => {
      it('answers each key with its prefix but never the plaintext key nor its stored hash', async () => {
        const name = unique('listed');
        const created = await runCli(['keys', 'create', '--name', name], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        const plaintext = created.stdout.trimEnd().split('\n').at(-1) ?? '';
        const sha256 = createHash('sha256').update(plaintext).digest('hex');
        const handle = createDb(databaseUrl);
        let stored: { prefix: string; secretHash: string };
        try {
          stored = await handle.db.selectFrom('apiKeys').select(['prefix', 'secretHash']).where('name', '=', name).executeTakeFirstOrThrow();
        } finally {
          await handle.close();
        }
        assert.ok(plaintext.startsWith(stored.prefix), 'the prefix is the start of the key');
        assert.ok(stored.prefix.length < plaintext.length);
        assert.notEqual(stored.secretHash, plaintext, 'the key is not stored in plain text');

        const listings = [['keys', 'list'], ['keys', 'list', '--json']];
        const results = await Promise.all(listings.map((args) => runCli(args, { DATABASE_URL: databaseUrl })));
        for (const [i, args] of listings.entries()) {
          const listed = results[i]!;
          assert.equal(listed.code, 0, listed.stderr);
          const output = listed.stdout + listed.stderr;
          assert.ok(output.includes(stored.prefix), `${args.join(' ')} shows the prefix`);
          assert.ok(output.includes(name), `${args.join(' ')} shows the name`);
          assert.ok(!output.includes(plaintext), `${args.join(' ')} shows the plaintext key`);
          assert.ok(!output.includes(stored.secretHash), `${args.join(' ')} shows the stored hash`);
          assert.ok(!output.includes(sha256), `${args.join(' ')} shows the SHA-256 of the key`);
        }
      });
    });

    describe('when an operator limits a key with --scope', () => {
      it('answers a key that may read but gets 403 insufficient_scope with the RFC 6750 challenge when it writes', async () => {
        const name = unique('reader');
        const created = await runCli(['keys', 'create', '--name', name, '--scope', 'pets:read', '--scope', 'orders:read'], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        assert.match(created.stderr, /scopes: pets:read, orders:read\)/);
        const reader = created.stdout.trimEnd().split('\n').at(-1) ?? '';
        assert.match(reader, KEY_PATTERN);

        assert.equal((await call(server, 'GET', '/v1/pets?limit=1', { key: reader })).status, 200);
        const refused = await call(server, 'POST', '/v1/pets', { key: reader, body: { name: unique('Nope'), categoryId: uniqueCategory() } });
        const error = assertErrorBody(refused, { status: 403, code: 'insufficient_scope' });
        assert.equal(error.message, 'this key lacks the scope pets:write that POST /v1/pets needs; its scopes: pets:read, orders:read');
        assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:write"');
      });

      it('answers, for a key made without --scope, that it has every scope', async () => {
        const created = await runCli(['keys', 'create', '--name', unique('all')], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        assert.match(created.stderr, /all scopes: pets:read, pets:write, orders:read, orders:write; limit a key with --scope/);
      });

      it('answers exit code 2 naming the scopes for an unknown scope, and makes no key', async () => {
        const name = unique('typo');
        const result = await runCli(['keys', 'create', '--name', name, '--scope', 'pets:read', '--scope', 'pets:delete'], { DATABASE_URL: databaseUrl });
        assert.equal(result.code, 2);
        assert.match(result.stderr, /--scope "pets:delete" is no scope; the scopes are pets:read, pets:write, orders:read, orders:write/);
        assert.equal(result.stdout, '');
        assert.ok(!(await listKeysJson(databaseUrl)).some((k) => k.name === name));
      });

      it('answers each key with its scopes in keys list and keys list --json', async () => {
        const name = unique('writer');
        const created = await runCli(['keys', 'create', '--name', name, '--scope', 'pets:write'], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        const listed = (await listKeysJson(databaseUrl)).find((k) => k.name === name);
        assert.deepEqual(listed?.scopes, ['pets:write']);

        const table = await runCli(['keys', 'list'], { DATABASE_URL: databaseUrl });
        assert.equal(table.code, 0, table.stderr);
        const [heading, ...rows] = table.stdout.trimEnd().split('\n');
        assert.deepEqual(heading!.split('\t'), ['ID', 'PREFIX', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED']);
        assert.equal(rows.find((row) => row.split('\t')[2] === name)?.split('\t')[3], 'pets:write');
        const allScopesId = (await listKeysJson(databaseUrl)).find((k) => k.scopes.length === 4)?.id;
        const everything = rows.find((row) => row.split('\t')[0] === String(allScopesId));
        assert.equal(everything?.split('\t')[3], 'pets:read,pets:write,orders:read,orders:write');
      });
    });

    describe('when a client adds a pet', () => {
      it('answers 201 with a Location header and the pet, available by default', async () => {
        const name = unique('Rex');
        const categoryId = uniqueCategory();
        const answer = await call(server, 'POST', '/v1/pets', { key, body: { name, categoryId } });
        assert.equal(answer.status, 201, answer.text);
        const pet = answer.body as Pet;
        assert.ok(Number.isSafeInteger(pet.id) && pet.id >= 1);
        assert.deepEqual(pet, { id: pet.id, name, categoryId, status: 'available' });
        assert.equal(answer.headers.get('location'), `/v1/pets/${pet.id}`);

        const fetched = await call(server, 'GET', answer.headers.get('location')!, { key });
        assert.equal(fetched.status, 200);
        assert.deepEqual(fetched.body, pet);
      });

      it('answers the status it was given, and the name exactly as sent', async () => {
        const name = `  ${unique('Tom')} é 🐈  `;
        const pet = await createPet(server, key, { name, status: 'pending' });
        assert.equal(pet.status, 'pending');
        assert.equal(pet.name, name);
      });
    });

    describe('when a client lists pets', () => {
      it('answers at most limit pets in ascending id order, with a next link while more follow', async () => {
        await createPet(server, key);
        await createPet(server, key);
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal((answer.body as Pet[]).length, 1);
        assert.ok(nextLinkOf(answer)?.startsWith('/v1/pets?'), `Link: ${answer.headers.get('link')}`);

        const all = await call(server, 'GET', '/v1/pets?limit=100', { key });
        const ids = (all.body as Pet[]).map((p) => p.id);
        assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      });

      it('answers every pet exactly once when the next links are followed to the end', async () => {
        const mine = [];
        for (let i = 0; i < 5; i += 1) mine.push(await createPet(server, key));
        const { pets, pages } = await walk(server, key, '/v1/pets?limit=2');
        const ids = pets.map((p) => p.id);
        assert.equal(new Set(ids).size, ids.length, 'no pet appears twice');
        assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'ids ascend across pages');
        for (const pet of mine) assert.deepEqual(pets.filter((p) => p.id === pet.id), [pet], `pet ${pet.id} appears once, unchanged`);
        assert.ok(pages.length >= 3);
        for (const page of pages.slice(0, -1)) assert.equal(page.length, 2, 'every page but the last is full');
        assert.ok(pages.at(-1)!.length >= 1 && pages.at(-1)!.length <= 2);
      });

      it('answers only pets of the status asked for, across pages too', async () => {
        const categoryId = uniqueCategory();
        const sold = [await createPet(server, key, { categoryId, status: 'sold' }), await createPet(server, key, { categoryId, status: 'sold' })];
        const pending = await createPet(server, key, { categoryId, status: 'pending' });
        const available = await createPet(server, key, { categoryId });

        const { pets, pages } = await walk(server, key, '/v1/pets?status=sold&limit=1');
        assert.ok(pages.length >= 2);
        assert.ok(pets.every((p) => p.status === 'sold'), 'only sold pets');
        for (const pet of sold) assert.equal(pets.filter((p) => p.id === pet.id).length, 1);
        assert.ok(!pets.some((p) => p.id === pending.id || p.id === available.id));

        const pendingPage = await walk(server, key, '/v1/pets?status=pending&limit=100');
        assert.ok(pendingPage.pets.some((p) => p.id === pending.id));
        assert.ok(pendingPage.pets.every((p) => p.status === 'pending'));
      });

      it('answers 400 validation_failed for a bad limit, a bad status or an unknown parameter', async () => {
        for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=1e2', 'limit=', 'status=lost', 'stauts=sold']) {
          const answer = await call(server, 'GET', `/v1/pets?${query}`, { key });
          assertErrorBody(answer, { status: 400, code: 'validation_failed' });
        }
        const unknown = assertErrorBody(await call(server, 'GET', '/v1/pets?stauts=sold', { key }), { status: 400, code: 'validation_failed' });
        assert.match(unknown.message, /stauts/);
      });

      it('answers 400 invalid_cursor for a forged cursor or one used with another status filter', async () => {
        assertErrorBody(await call(server, 'GET', '/v1/pets?cursor=not-a-cursor', { key }), { status: 400, code: 'invalid_cursor' });
        await createPet(server, key, { status: 'sold' });
        await createPet(server, key, { status: 'sold' });
        const first = await call(server, 'GET', '/v1/pets?status=sold&limit=1', { key });
        const next = nextLinkOf(first);
        assert.ok(next, 'a next link');
        const cursor = new URL(next, server.baseUrl).searchParams.get('cursor');
        assert.ok(cursor);
        assertErrorBody(await call(server, 'GET', `/v1/pets?limit=1&cursor=${encodeURIComponent(cursor)}`, { key }), { status: 400, code: 'invalid_cursor' });
        assertErrorBody(await call(server, 'GET', `/v1/pets?status=pending&cursor=${encodeURIComponent(cursor)}`, { key }), { status: 400, code: 'invalid_cursor' });
      });
    });

    describe('when a client fetches one pet (the deprecated operation)', () => {
      it('answers 200 with the pet and Deprecation, Sunset and Link headers', async () => {
        const pet = await createPet(server, key);
        const answer = await call(server, 'GET', `/v1/pets/${pet.id}`, { key });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, pet);
        const deprecation = answer.headers.get('deprecation') ?? '';
        assert.match(deprecation, /^@\d+$/, `Deprecation: ${deprecation}`);
        const deprecatedAt = Number(deprecation.slice(1)) * 1000;
        assert.ok(deprecatedAt <= Date.now() && deprecatedAt < Date.parse(SUNSET), 'deprecated before now and before the sunset');
        assert.equal(answer.headers.get('sunset'), SUNSET);
        const link = answer.headers.get('link') ?? '';
        assert.match(link, /<\/v1\/pets>;\s*rel="successor-version"/);
        assert.match(link, /rel="deprecation"/);
      });

      it('answers 404 pet_not_found for an id no pet has', async () => {
        const pet = await createPet(server, key);
        assertErrorBody(await call(server, 'GET', `/v1/pets/${pet.id + 1_000_000}`, { key }), { status: 404, code: 'pet_not_found' });
        assertErrorBody(await call(server, 'GET', `/v1/pets/${Number.MAX_SAFE_INTEGER}`, { key }), { status: 404, code: 'pet_not_found' });
      });

      it('answers 400 validation_failed for a petId that is not a whole number from 1 to 2^53-1', async () => {
        for (const petId of ['abc', '1.5', '0', '-1', '1e2', '0x10', '9007199254740992']) {
          const body = assertErrorBody(await call(server, 'GET', `/v1/pets/${petId}`, { key }), { status: 400, code: 'validation_failed' });
          assert.match(body.message, /petId/, `petId ${petId}: ${body.message}`);
        }
      });
    });

    describe('when the API key is missing, wrong or oddly written', () => {
      it('answers 401 unauthorized with a Bearer challenge when no key is sent', async () => {
        for (const [method, path] of [['GET', '/v1/pets'], ['GET', '/v1/pets/1'], ['POST', '/v1/pets']] as const) {
          const answer = await call(server, method, path, method === 'POST' ? { body: { name: unique('nokey'), categoryId: 1 } } : {});
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
      });

      it('answers 401 unauthorized with a Bearer challenge for an unknown or malformed key', async () => {
        const wrongKeys = [`ask_${'A'.repeat(43)}`, key.slice(0, -1), `${key}x`, 'not-a-key'];
        for (const wrong of wrongKeys) {
          const answer = await call(server, 'GET', '/v1/pets', { key: wrong });
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
        for (const authorization of [`Basic ${Buffer.from(`user:${key}`).toString('base64')}`, key, 'Bearer', '']) {
          const answer = await call(server, 'GET', '/v1/pets', { headers: { authorization } });
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
      });

      it('answers 200 when the scheme is written in lower case (bearer)', async () => {
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { headers: { authorization: `bearer ${key}` } });
        assert.equal(answer.status, 200, answer.text);
      });

      it('answers 401 before 400, 413 or 415: a request without a key learns nothing about its body', async () => {
        const name = unique('unauthenticated');
        const bodies: { body: string; contentType: string }[] = [
          { body: '{', contentType: 'application/json' },
          { body: JSON.stringify({ name, categoryId: '5' }), contentType: 'application/json' },
          { body: JSON.stringify({ name, categoryId: 1, stauts: 'sold' }), contentType: 'application/json' },
          { body: 'name=x', contentType: 'text/plain' },
          { body: JSON.stringify({ name: 'x'.repeat(70 * 1024), categoryId: 1 }), contentType: 'application/json' },
        ];
        for (const { body, contentType } of bodies) {
          const answer = await call(server, 'POST', '/v1/pets', { body, headers: { 'content-type': contentType } });
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
        }
        assertErrorBody(await call(server, 'GET', '/v1/pets?limit=abc'), { status: 401, code: 'unauthorized' });
        assertErrorBody(await call(server, 'GET', '/v1/pets/abc'), { status: 401, code: 'unauthorized' });
      });
    });

    describe('when a client sends an invalid body', () => {
      it('answers 400 validation_failed naming the field, and stores nothing', async () => {
        const name = unique('invalid');
        const cases: { body: Record<string, unknown>; field: string }[] = [
          { body: { name, categoryId: '5' }, field: 'body.categoryId' },
          { body: { id: 7, name, categoryId: 1 }, field: 'body.id' },
          { body: { name, categoryId: 1, stauts: 'sold' }, field: 'body.stauts' },
          { body: { name, categoryId: 1.5 }, field: 'body.categoryId' },
          { body: { name, categoryId: 0 }, field: 'body.categoryId' },
          { body: { name, categoryId: null }, field: 'body.categoryId' },
          { body: { name, categoryId: 1, status: 'lost' }, field: 'body.status' },
          { body: { name: '   ', categoryId: 1 }, field: 'body.name' },
          { body: { name: '', categoryId: 1 }, field: 'body.name' },
          { body: { categoryId: 1 }, field: 'body.name' },
        ];
        for (const { body, field } of cases) {
          const error = assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body }), { status: 400, code: 'validation_failed' });
          assert.ok(error.details?.some((d) => d.field === field), `${JSON.stringify(body)}: details name ${field}: ${JSON.stringify(error)}`);
        }
        const unknownField = assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body: { name, categoryId: 1, stauts: 'sold' } }), { status: 400, code: 'validation_failed' });
        assert.match(unknownField.message, /stauts/);
        const { pets } = await walk(server, key, '/v1/pets?limit=100');
        assert.ok(!pets.some((p) => p.name === name), 'no invalid pet was stored');
      });

      it('answers 400 malformed_json for invalid JSON, an empty body, or an integer beyond 2^53-1, and stores nothing', async () => {
        const name = unique('huge');
        for (const body of ['{', '', '{"name":"x",}', `{"name":"${name}","categoryId":9007199254740993}`]) {
          assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'application/json' } }), { status: 400, code: 'malformed_json' });
        }
        const { pets } = await walk(server, key, '/v1/pets?limit=100');
        assert.ok(!pets.some((p) => p.name === name), 'the pet with a rounded categoryId was not stored');
      });

      it('answers 413 payload_too_large for a body over 64 KiB', async () => {
        const body = JSON.stringify({ name: unique('big').padEnd(65 * 1024, 'x'), categoryId: 1 });
        assert.ok(Buffer.byteLength(body) > 64 * 1024);
        assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'application/json' } }), { status: 413, code: 'payload_too_large' });
      });

      it('answers 415 unsupported_media_type for text/plain', async () => {
        const body = JSON.stringify({ name: unique('plain'), categoryId: 1 });
        assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'text/plain' } }), { status: 415, code: 'unsupported_media_type' });
      });
    });

    describe('when the path or the method is unknown', () => {
      it('answers 404 route_not_found for /v1/nope, with or without a key', async () => {
        assertErrorBody(await call(server, 'GET', '/v1/nope', { key }), { status: 404, code: 'route_not_found' });
        assertErrorBody(await call(server, 'GET', '/v1/nope'), { status: 404, code: 'route_not_found' });
      });

      it('answers 405 method_not_allowed with an Allow header for DELETE /v1/pets', async () => {
        const answer = await call(server, 'DELETE', '/v1/pets', { key });
        assertErrorBody(answer, { status: 405, code: 'method_not_allowed' });
        const allow = (answer.headers.get('allow') ?? '').split(/,\s*/);
        assert.ok(allow.includes('GET') && allow.includes('POST'), `Allow: ${allow.join(', ')}`);
        assert.ok(!allow.includes('DELETE'));

        const put = await call(server, 'PUT', '/v1/pets/1', { key, body: { name: 'x', categoryId: 1 } });
        assertErrorBody(put, { status: 405, code: 'method_not_allowed' });
        assert.ok((put.headers.get('allow') ?? '').split(/,\s*/).includes('GET'));
      });
    });

    describe('when public endpoints are called without a key', () => {
      it('answers 200 with the OpenAPI document at /v1/openapi.json', async () => {
        const answer = await call(server, 'GET', '/v1/openapi.json');
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
        const document = answer.body as { openapi: string; paths: Record<string, unknown> };
        assert.match(document.openapi, /^3\./);
        assert.ok('/pets' in document.paths && '/pets/{petId}' in document.paths, Object.keys(document.paths).join(', '));
      });

      it('answers 200 at /healthz and /readyz', async () => {
        const health = await call(server, 'GET', '/healthz');
        assert.equal(health.status, 200);
        assert.deepEqual(health.body, { status: 'ok' });
        const ready = await call(server, 'GET', '/readyz');
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.body, { status: 'ready' });
      });
    });

    describe('when any request is answered', () => {
      it('answers the X-Request-Id the client sent, and a new one otherwise', async () => {
        const echoed = await call(server, 'GET', '/v1/pets?limit=1', { key, headers: { 'x-request-id': 'abc-123' } });
        assert.equal(echoed.headers.get('x-request-id'), 'abc-123');
        const echoedError = await call(server, 'GET', '/v1/pets', { headers: { 'x-request-id': 'abc-123' } });
        assert.equal(echoedError.status, 401);
        assert.equal(echoedError.headers.get('x-request-id'), 'abc-123');

        const first = (await call(server, 'GET', '/healthz')).headers.get('x-request-id') ?? '';
        const second = (await call(server, 'GET', '/healthz')).headers.get('x-request-id') ?? '';
        assert.match(first, UUID_PATTERN);
        assert.match(second, UUID_PATTERN);
        assert.notEqual(first, second);

        // An id unsafe to echo or log is replaced.
        const replaced = await call(server, 'GET', '/healthz', { headers: { 'x-request-id': 'x'.repeat(200) } });
        assert.match(replaced.headers.get('x-request-id') ?? '', UUID_PATTERN);

        const logged = await server.waitForLog((line) => line.requestId === 'abc-123' && line.statusCode === 200);
        assert.equal(logged.msg, 'request');
      });

      it('answers JSON with cache-control: no-store and x-content-type-options: nosniff', async () => {
        const answers = [
          await call(server, 'POST', '/v1/pets', { key, body: { name: unique('headers'), categoryId: 1 } }),
          await call(server, 'GET', '/v1/pets?limit=1', { key }),
          await call(server, 'GET', '/v1/pets'),
          await call(server, 'GET', '/v1/nope', { key }),
          await call(server, 'GET', '/healthz'),
        ];
        for (const answer of answers) {
          assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
          assert.equal(answer.headers.get('cache-control'), 'no-store');
          assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
        }
      });

      it('answers without ever writing the API key or the Authorization header to the log', async () => {
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key, headers: { 'x-request-id': 'log-check-1' } });
        assert.equal(answer.status, 200);
        const line = await server.waitForLog((l) => l.requestId === 'log-check-1');
        assert.equal(line.statusCode, 200);
        assert.equal(typeof line.keyPrefix, 'string');
        assert.equal(line.keyPrefix, key.slice(0, (line.keyPrefix as string).length), 'the log names the key by its prefix');
        assert.ok(!server.stdout().includes(key), 'the key is in the log');
        assert.ok(!server.stdout().includes(`Bearer ${key.slice(0, 20)}`), 'an Authorization header is in the log');
      });
    });

    describe('when a key is revoked with the CLI', () => {
      // KEY_CACHE_TTL_MS=0 turns the verifier's cache off, so a revocation takes effect on the very
      // next request; with the default cache a revoked key keeps working for up to KEY_CACHE_TTL_MS.
      let revokeDatabaseUrl: string;
      let revokeServer: RunningService;

      before(async () => {
        revokeDatabaseUrl = await newDatabaseUrl();
        revokeServer = await spawnService({ databaseUrl: revokeDatabaseUrl, env: { KEY_CACHE_TTL_MS: '0' } });
      });
      after(async () => {
        await revokeServer?.stop();
      });

      it('answers 401 on the next request', async () => {
        const revoked = await createKey(revokeDatabaseUrl);
        const kept = await createKey(revokeDatabaseUrl);
        assert.equal((await call(revokeServer, 'GET', '/v1/pets', { key: revoked })).status, 200);

        const listed = (await listKeysJson(revokeDatabaseUrl)).find((k) => revoked.startsWith(k.prefix));
        assert.ok(listed, 'keys list --json finds the key by its prefix');
        const revoke = await runCli(['keys', 'revoke', String(listed.id)], { DATABASE_URL: revokeDatabaseUrl });
        assert.equal(revoke.code, 0, revoke.stderr);

        const answer = await call(revokeServer, 'GET', '/v1/pets', { key: revoked });
        assertErrorBody(answer, { status: 401, code: 'unauthorized' });
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        assert.equal((await call(revokeServer, 'GET', '/v1/pets', { key: kept })).status, 200, 'other keys keep working');

        const afterRevoke = (await listKeysJson(revokeDatabaseUrl)).find((k) => k.id === listed.id);
        assert.ok(afterRevoke?.revokedAt, 'keys list shows when it was revoked');
      });

      it('answers exit code 1 when no key has the id, and 2 when the id is not a number', async () => {
        const [missing, notANumber] = await Promise.all([
          runCli(['keys', 'revoke', '999999'], { DATABASE_URL: revokeDatabaseUrl }),
          runCli(['keys', 'revoke', 'abc'], { DATABASE_URL: revokeDatabaseUrl }),
        ]);
        assert.equal(missing.code, 1, missing.stderr);
        assert.match(missing.stderr, /999999/);
        assert.equal(notANumber.code, 2, notANumber.stderr);
      });
    });

    describe('when a key made with --expires-in 1s expires', () => {
      it('answers 200 before the expiry and 401 after it', async () => {
        const expiring = await createKey(databaseUrl, ['--expires-in', '1s']);
        const createdBy = Date.now(); // the key was issued before this instant, so it expires before createdBy + 1 s
        assert.equal((await call(server, 'GET', '/v1/pets?limit=1', { key: expiring })).status, 200, 'the key works at first');
        await sleep(createdBy + 1500 - Date.now());
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key: expiring });
        assertErrorBody(answer, { status: 401, code: 'unauthorized' });
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
      });
    });

    describe('when it starts on an empty key store', () => {
      let bootstrapDatabaseUrl: string;
      let first: RunningService;
      let printedKey: string;
      let curlUrl: string;

      before(async () => {
        bootstrapDatabaseUrl = await newDatabaseUrl();
        first = await spawnService({ databaseUrl: bootstrapDatabaseUrl, args: ['serve'] });
        // The key is made once the service listens, so it may follow the "listening" line.
        for (let i = 0; i < 100 && !/ask_[A-Za-z0-9_-]{43}/.test(first.stdout()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      });
      after(async () => {
        await first?.stop();
      });

      it('answers a new key and a curl example on stdout, once, and never in the log', async () => {
        const stdout = first.stdout();
        const keyLine = stdout.split('\n').find((line) => KEY_PATTERN.test(line.trim()));
        assert.ok(keyLine, `a key on stdout:\n${stdout}`);
        printedKey = keyLine.trim();
        const curl = stdout.split('\n').find((line) => /^\s*curl /.test(line));
        assert.ok(curl, `a curl example on stdout:\n${stdout}`);
        const match = /curl -H "Authorization: Bearer (ask_[A-Za-z0-9_-]{43})" (\S+)$/.exec(curl.trim());
        assert.ok(match, curl);
        assert.equal(match[1], printedKey, 'the curl example uses the printed key');
        curlUrl = match[2]!;
        assert.match(curlUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1\/pets$/);
        assert.ok(!first.logs.some((line) => JSON.stringify(line).includes(printedKey)), 'the key is in a log line');

        assert.equal((await call(first, 'GET', '/v1/pets', { key: printedKey })).status, 200, 'the printed key works');
      });

      it('answers the curl example at the port it actually listens on', async () => {
        assert.equal(curlUrl, `${first.baseUrl}/v1/pets`);
      });

      it('says the key commands need the same DATABASE_URL, and names this one', () => {
        const location = dialect === 'sqlite' ? `sqlite:${sqlitePathOf(bootstrapDatabaseUrl)}` : bootstrapDatabaseUrl;
        assert.ok(first.stdout().includes(`The command must see the same DATABASE_URL as this service (${location})`), first.stdout());
      });

      it('answers no key on stdout at the second start on the same database', async () => {
        const firstExit = await first.stop();
        assert.equal(firstExit.code, 0);
        const second = await spawnService({ databaseUrl: bootstrapDatabaseUrl, args: ['serve'] });
        try {
          assert.ok(!/ask_[A-Za-z0-9_-]{43}/.test(second.stdout()), `no key at the second start:\n${second.stdout()}`);
          assert.ok(!second.stdout().includes('curl'), 'no curl example at the second start');
          assert.equal((await call(second, 'GET', '/v1/pets', { key: printedKey })).status, 200, 'the first key still works');
        } finally {
          assert.equal((await second.stop()).code, 0);
        }
        const keys = await listKeysJson(bootstrapDatabaseUrl);
        assert.deepEqual(keys.map((k) => k.name), ['bootstrap']);
      });
    });

    describe('when it receives SIGTERM with a request in flight', () => {
      let stopDatabaseUrl: string;
      let stopping: RunningService;
      let stopKey: string;

      before(async () => {
        stopDatabaseUrl = await newDatabaseUrl();
        stopKey = await createKey(stopDatabaseUrl);
        stopping = await spawnService({ databaseUrl: stopDatabaseUrl });
      });
      after(async () => {
        await stopping?.stop();
      });

      it('answers the request in flight, then exits 0 and logs "stopped"', { timeout: 20_000 }, async () => {
        const name = unique('in-flight');
        const body = JSON.stringify({ name, categoryId: 1 });
        const half = Math.floor(body.length / 2);
        // Expect: 100-continue makes the server say when it has taken the request, so the signal
        // is sent while the request is surely in flight: headers read, body half sent.
        const request = http.request(`${stopping.baseUrl}/v1/pets`, {
          method: 'POST',
          agent: false,
          headers: {
            authorization: `Bearer ${stopKey}`,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            expect: '100-continue',
          },
        });
        const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
          request.on('error', reject);
          request.on('response', (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
            res.on('error', reject);
          });
        });
        await new Promise<void>((resolve) => request.once('continue', resolve));
        request.write(body.slice(0, half));
        await sleep(50);

        const exit = stopping.stop('SIGTERM');
        await stopping.waitForLog((line) => String(line.msg).startsWith('stopping'));
        request.end(body.slice(half));

        const answer = await response;
        assert.equal(answer.status, 201, answer.text);
        assert.equal((JSON.parse(answer.text) as Pet).name, name);
        const result = await exit;
        assert.deepEqual(result, { code: 0, signal: null });
        assert.ok(stopping.logs.some((line) => line.msg === 'stopped'), 'logs "stopped"');
        assert.ok(stopping.logs.some((line) => line.msg === 'request' && line.statusCode === 201), 'the request in flight was logged');

        // It stopped for good: the port is closed, and the pet was committed.
        await assert.rejects(fetch(`${stopping.baseUrl}/healthz`));
        const restarted = await spawnService({ databaseUrl: stopDatabaseUrl });
        try {
          const { pets } = await walk(restarted, stopKey, '/v1/pets?limit=100');
          assert.equal(pets.filter((p) => p.name === name).length, 1, 'the pet answered 201 was stored');
        } finally {
          await restarted.stop();
        }
      });
    });

    describe('when the configuration or the command is wrong', () => {
      // Each command gets a new, empty database of its own, as an operator's first attempt would.
      let portUrl: string;
      let commandUrl: string;
      let optionUrl: string;

      before(async () => {
        [portUrl, commandUrl, optionUrl] = await Promise.all([newDatabaseUrl(), newDatabaseUrl(), newDatabaseUrl()]);
      });

      it('answers exit code 1 and names PORT on stderr when PORT=abc', async () => {
        const result = await runCli(['serve'], { PORT: 'abc', DATABASE_URL: portUrl });
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /PORT/);
        assert.equal(result.stdout, '');
      });

      it('answers exit code 2 and the usage for an unknown command', async () => {
        const result = await runCli(['frobnicate'], { DATABASE_URL: commandUrl });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /frobnicate/);
        assert.match(result.stderr, /Usage:/);
      });

      it('answers exit code 2 for an option the command does not take, instead of ignoring it', async () => {
        const result = await runCli(['keys', 'list', '--workers', '3'], { DATABASE_URL: optionUrl });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /keys list does not take --workers/);
      });

      it('answers exit code 2 for an argument the command does not take', async () => {
        const result = await runCli(['keys', 'revoke', '3', '4'], { DATABASE_URL: optionUrl });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /keys revoke takes no argument "4"/);
      });
    });
  });
}
