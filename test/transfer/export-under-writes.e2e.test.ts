/**
 * `animal-store export` while four clients create pets on a serving store, once per dialect: the
 * file is one snapshot (its end line's counts match its lines), holds every pet acknowledged
 * before the export began, and imports cleanly into an empty store.
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { call, createKey, type Pet, unique, uniqueCategory } from '../helpers/cli-e2e.js';
import { runCli, spawnService, stopAllServices, type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';

/** Clients that create pets, one at a time each, until stopped; `reached(n)` settles once n creates were answered 201. */
function petWriters(service: RunningService, key: string, clients: number) {
  const acknowledged: Pet[] = [];
  const failures: string[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const answer = await call(service, 'POST', '/v1/pets', { key, body: { name: unique('pet'), categoryId: uniqueCategory() } });
      if (answer.status === 201) acknowledged.push(answer.body as Pet);
      else failures.push(`${answer.status} ${answer.text}`);
      for (const waiter of waiting.filter((candidate) => acknowledged.length >= candidate.n)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  return {
    acknowledged,
    reached: (n: number) => new Promise<void>((resolve) => (acknowledged.length >= n ? resolve() : waiting.push({ n, resolve }))),
    async stop() {
      running = false;
      await Promise.all(loops);
      return failures;
    },
  };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store export while clients write on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    const places: Array<{ remove(): Promise<void> }> = [];
    after(async () => {
      await stopAllServices();
      for (const place of places) await place.remove();
    });

    it('export > while 4 clients create pets > is one consistent snapshot holding every pet acknowledged before it, and imports cleanly', async () => {
      const source = await createEmptyDatabaseUrl(dialect);
      places.push(source);
      const key = await createKey(source.url);
      const service = await spawnService({ databaseUrl: source.url });
      const writers = petWriters(service, key, 4);
      await writers.reached(100);
      const acknowledgedBefore = writers.acknowledged.map((pet) => pet.id);
      const exported = await runCli(['export'], { DATABASE_URL: source.url }, { timeoutMs: 60_000 });
      await writers.reached(writers.acknowledged.length + 20);
      assert.deepEqual(await writers.stop(), [], 'every create answered 201');
      await service.stop();
      assert.equal(exported.code, 0, exported.stderr);

      const records = exported.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const end = records.at(-1)!;
      assert.equal(end.kind, 'end');
      const counted: Record<string, number> = {};
      for (const record of records.slice(1, -1)) counted[String(record.kind)] = (counted[String(record.kind)] ?? 0) + 1;
      for (const [kind, n] of Object.entries(end.counts as Record<string, number>)) assert.equal(counted[kind] ?? 0, n, `${kind} lines`);
      const petIds = new Set(records.filter((record) => record.kind === 'pet').map((pet) => Number(pet.id)));
      assert.deepEqual(
        acknowledgedBefore.filter((id) => !petIds.has(id)),
        [],
        'every pet acknowledged before the export began is in it',
      );
      // One snapshot: every pet's pet.created event is in the file too.
      const createdFor = new Set(
        records
          .filter((record) => record.kind === 'event' && record.type === 'pet.created')
          .map((event) => (JSON.parse(String(event.data)) as { id: number }).id),
      );
      assert.deepEqual(
        [...petIds].filter((id) => !createdFor.has(id)),
        [],
      );

      const target = await createEmptyDatabaseUrl(dialect);
      places.push(target);
      const imported = await runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: exported.stdout, timeoutMs: 60_000 });
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, new RegExp(`^Imported .*${petIds.size} pet,`, 'm'));
    });
  });
}
