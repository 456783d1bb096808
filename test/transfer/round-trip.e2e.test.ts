/**
 * A store moved SQLite → PostgreSQL → SQLite with `animal-store export` and `import`, the built
 * command on real files, a real service on each end: the first and last exports are the same after
 * their first line, and what clients hold from the old store (API keys, ETags, a pets page cursor,
 * an events cursor) works on the new one; and docs/operations.md's recipe "Moving to PostgreSQL",
 * run as written. Needs PostgreSQL (skipped without TEST_DATABASE_URL).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { childEnv } from '../helpers/child-processes.js';
import { call, createKey, createPet, nextLinkOf } from '../helpers/cli-e2e.js';
import { publishedSection } from '../helpers/published-docs.js';
import { CLI_PATH, runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl, describeOnPostgres } from '../helpers/test-db.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

describeOnPostgres('animal-store export and import > SQLite → PostgreSQL → SQLite', { timeout: SUITE_STUCK_MS }, () => {
  const places: Array<{ url: string; remove(): Promise<void> }> = [];
  let dir: string;
  let old: RunningService;
  let oldUrl: string;
  let key: string;
  let petId: number;
  let etag: string | null;
  let petsNext: string;
  let eventsNext: string;
  const oldAnswers: Record<string, string> = {};

  const place = async (dialect: 'sqlite' | 'postgres') => {
    const made = await createEmptyDatabaseUrl(dialect);
    places.push(made);
    return made.url;
  };
  const runOk = async (args: string[], url: string) => {
    const result = await runCli(args, { DATABASE_URL: url }, { timeoutMs: 60_000 });
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return result;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'animal-store-round-trip-'));
    oldUrl = await place('sqlite');
    key = await createKey(oldUrl);
    // A webhook endpoint whose receiver cannot be reached: its deliveries wait, pending, for their next attempt.
    const handle = createDb(oldUrl);
    try {
      const endpoint = await insertWebhookEndpoint(handle.db, { url: 'https://receiver.invalid/hooks', events: ['order.*'] });
      await insertWebhookDelivery(handle.db, { endpointId: endpoint.id, state: 'pending', nextAttemptAt: Date.now() + 3_600_000 });
    } finally {
      await handle.close();
    }
    old = await spawnService({ databaseUrl: oldUrl });
    for (let i = 0; i < 5; i++) await createPet(old, key, { name: `Moved ${i}`, categoryId: 42 });
    const listed = await call(old, 'GET', '/v1/pets?categoryId=42&limit=2', { key });
    assert.equal(listed.status, 200, listed.text);
    petsNext = nextLinkOf(listed)!;
    petId = (listed.body as Array<{ id: number }>)[0]!.id;
    const renamed = await call(old, 'PATCH', `/v1/pets/${petId}`, { key, body: { name: 'Renamed' } });
    assert.equal(renamed.status, 200, renamed.text);
    etag = renamed.headers.get('etag');
    assert.ok(etag);
    const events = await call(old, 'GET', '/v1/events?limit=2', { key });
    assert.equal(events.status, 200, events.text);
    eventsNext = nextLinkOf(events)!;
    for (const link of [petsNext, eventsNext]) {
      assert.ok(link, 'the old store gave a next link');
      oldAnswers[link] = (await call(old, 'GET', link, { key })).text;
    }
  });
  after(async () => {
    await stopAllServices();
    for (const made of places) await made.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the store line for line, and clients of the old store go on with the new one', async () => {
    const [first, second, third] = [join(dir, '1.ndjson'), join(dir, '2.ndjson'), join(dir, '3.ndjson')];
    // Exported while the old service runs.
    await runOk(['export', '--output', first], oldUrl);
    await old.stop();
    const postgresUrl = await place('postgres');
    await runOk(['import', first], postgresUrl);
    await runOk(['export', '--output', second], postgresUrl);
    const lastUrl = await place('sqlite');
    await runOk(['import', second], lastUrl);
    await runOk(['export', '--output', third], lastUrl);
    const afterFirstLine = (file: string) => readFileSync(file, 'utf8').split('\n').slice(1).join('\n');
    assert.equal(afterFirstLine(third), afterFirstLine(first));
    assert.equal(afterFirstLine(second), afterFirstLine(first), 'PostgreSQL wrote the same lines as SQLite');

    const moved = await spawnService({ databaseUrl: postgresUrl });
    const pet = await call(moved, 'GET', `/v1/pets/${petId}`, { key });
    assert.equal(pet.status, 200, `the old key works on the new store: ${pet.text}`);
    assert.equal(pet.headers.get('etag'), etag, 'the pet keeps its ETag');
    for (const link of [petsNext, eventsNext]) {
      const answer = await call(moved, 'GET', link, { key });
      assert.equal(answer.status, 200, `${link}: ${answer.text}`);
      assert.equal(answer.text, oldAnswers[link], `${link} answers on the new store as on the old`);
    }
    const created = await createPet(moved, key, { name: 'After the move', categoryId: 42 });
    assert.ok(created.id > petId + 4, 'new ids start above the old ones');
  });

  it('docs/operations.md "Moving to PostgreSQL" > its commands, run as written > move a store and its keys', async () => {
    const blocks = [...publishedSection('Moving to PostgreSQL').text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
    assert.equal(blocks.length, 2, 'a block that sets the two URLs, then the commands');
    // The first block is the reader's own settings: the test gives its own in their place.
    assert.deepEqual(
      blocks[0]!
        .trimEnd()
        .split('\n')
        .map((line) => line.split('=')[0]),
      ['export OLD_DATABASE_URL', 'export NEW_DATABASE_URL'],
    );
    const oldStore = await place('sqlite');
    const movedKey = await createKey(oldStore);
    const newStore = await place('postgres');
    const work = mkdtempSync(join(dir, 'recipe-'));
    // `animal-store` as an installed package gives it: the built command.
    writeFileSync(join(work, 'animal-store'), `#!/bin/sh\nexec "${process.execPath}" "${CLI_PATH}" "$@"\n`);
    chmodSync(join(work, 'animal-store'), 0o755);
    const stdout = execFileSync('bash', ['-e', '-o', 'pipefail', '-c', blocks[1]!], {
      cwd: work,
      env: childEnv({ OLD_DATABASE_URL: oldStore, NEW_DATABASE_URL: newStore, PATH: `${work}:${process.env.PATH}` }),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    assert.ok(stdout.includes(movedKey.slice(0, 12)), `keys list shows the moved key's prefix: ${stdout}`);
    const exportedNew = await runOk(['export'], newStore);
    assert.equal(exportedNew.stdout, readFileSync(join(work, 'store.ndjson'), 'utf8'), 'the new store exports the file it was made from');
  });
});
