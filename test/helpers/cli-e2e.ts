/**
 * What the end-to-end suites of the built command share: a real HTTP client for a spawned
 * service, pets, keys made with the CLI, and `servedSuite()`, which gives each file's dialect
 * suite a server of its own on a new database with a key made by the CLI.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { type RunningService, runCli, spawnService, stopAllServices } from './spawn-service.js';
import type { DialectName } from '../../src/db/database-url.js';
import { createEmptyDatabaseUrl } from './test-db.js';

export const KEY_PATTERN = /^ask_[A-Za-z0-9_-]{43}$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: 'available' | 'pending' | 'sold';
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  text: string;
}

export interface CallOptions {
  /** A key sent as `Authorization: Bearer <key>`. */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is (with the content type of `headers`, if any). */
  body?: unknown;
}

/** Unique names and category ids, so each test recognises its own pets among all the others. */
let sequence = 0;
export const unique = (label: string) => `${label}-${process.pid}-${++sequence}`;
export const uniqueCategory = () => 100_000 + Math.floor(Math.random() * 1_000_000) * 100 + (++sequence % 100);

export async function call(service: RunningService, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
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

export async function createPet(service: RunningService, key: string, pet: { name?: string; categoryId?: number; status?: Pet['status'] } = {}): Promise<Pet> {
  const answer = await call(service, 'POST', '/v1/pets', {
    key,
    body: { name: pet.name ?? unique('pet'), categoryId: pet.categoryId ?? uniqueCategory(), ...(pet.status ? { status: pet.status } : {}) },
  });
  assert.equal(answer.status, 201, answer.text);
  return answer.body as Pet;
}

export const nextLinkOf = (answer: Answer) => /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];

/** Follows `Link: <…>; rel="next"` from `path` to the last page; answers every page's pets. */
export async function walk(service: RunningService, key: string, path: string): Promise<{ pets: Pet[]; pages: Pet[][] }> {
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

export async function createKey(databaseUrl: string, args: string[] = []): Promise<string> {
  const created = await runCli(['keys', 'create', '--name', unique('key'), ...args], { DATABASE_URL: databaseUrl });
  assert.equal(created.code, 0, created.stderr);
  const key = created.stdout.trimEnd().split('\n').at(-1) ?? '';
  assert.match(key, KEY_PATTERN);
  return key;
}

export interface ListedKey {
  id: number;
  name: string;
  prefix: string;
  revokedAt: string | null;
  expiresAt: string | null;
  scopes: string[];
}

export async function listKeysJson(databaseUrl: string): Promise<ListedKey[]> {
  const listed = await runCli(['keys', 'list', '--json'], { DATABASE_URL: databaseUrl });
  assert.equal(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout) as ListedKey[];
}

export interface ServedSuite {
  databaseUrl: string;
  server: RunningService;
  key: string;
}

/**
 * Registers the suite's `after`, which removes every place for data it made (no database survives
 * the suite) and stops every child process. The answer makes a new, empty place for data on this
 * dialect, for `before` hooks.
 */
export function suitePlaces(dialect: DialectName): () => Promise<string> {
  /** Every place for data this suite made (SQLite folders, PostgreSQL schemas), removed in `after`. */
  const places: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>[] = [];
  after(async () => {
    // Whatever failed, no child process survives this suite, and no database either.
    await stopAllServices();
    const removals = await Promise.allSettled(places.map((place) => place.remove()));
    const failed = removals.filter((removal) => removal.status === 'rejected');
    if (failed.length > 0)
      throw new AggregateError(
        failed.map((removal) => removal.reason),
        `${failed.length} test database(s) were not removed`,
      );
  });
  return async () => {
    const place = await createEmptyDatabaseUrl(dialect);
    places.push(place);
    return place.url;
  };
}

/**
 * `suitePlaces()` plus the server most tests of a suite talk to: its `before` makes a new
 * database, a key with the CLI and a server on it, and hands them to `onStarted`.
 */
export function servedSuite(dialect: DialectName, onStarted: (suite: ServedSuite) => void): () => Promise<string> {
  const newDatabaseUrl = suitePlaces(dialect);
  before(async () => {
    const databaseUrl = await newDatabaseUrl();
    const key = await createKey(databaseUrl);
    onStarted({ databaseUrl, key, server: await spawnService({ databaseUrl }) });
  });
  return newDatabaseUrl;
}
