/**
 * Answers sent before a large upload is read (413 from Content-Length, 401 without a key) must
 * reach the client: Node's fetch over a real port reads them instead of failing with EPIPE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

const TRIES = 30;
const BODY = Buffer.alloc(5 * 1024 * 1024, 'a');

async function postBig(service: RunningService, authorization?: string): Promise<string> {
  try {
    const response = await fetch(`${service.baseUrl}/v1/pets`, {
      method: 'POST',
      body: BODY,
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    });
    const body = (await response.json()) as { code: string };
    return `${response.status} ${body.code} connection: ${response.headers.get('connection')}`;
  } catch (error) {
    return `failed: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`;
  }
}

describe('early answers to a 5 MiB upload', { timeout: SUITE_STUCK_MS }, () => {
  let place: Awaited<ReturnType<typeof createEmptyDatabaseUrl>>;
  let service: RunningService;
  let key: string;
  before(async () => {
    place = await createEmptyDatabaseUrl('sqlite');
    const made = await runCli(['keys', 'create', '--name', 'uploader'], { DATABASE_URL: place.url });
    key = made.stdout.trim();
    service = await spawnService({ databaseUrl: place.url, env: { RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(async () => {
    await stopAllServices();
    await place?.remove();
  });

  it(`with a valid key, ${TRIES} tries > every one reads the 413, with Connection: close`, async () => {
    const outcomes = [];
    for (let i = 0; i < TRIES; i++) outcomes.push(await postBig(service, `Bearer ${key}`));
    assert.deepEqual(outcomes, new Array(TRIES).fill('413 payload_too_large connection: close'));
  });

  it(`without a key, ${TRIES} tries > every one reads the 401, with Connection: close`, async () => {
    const outcomes = [];
    for (let i = 0; i < TRIES; i++) outcomes.push(await postBig(service));
    assert.deepEqual(outcomes, new Array(TRIES).fill('401 unauthorized connection: close'));
  });
});
