/**
 * `animal-store export` and `animal-store import` end to end, once per dialect: the built command
 * on real files and a real database (a SQLite file; a PostgreSQL schema when TEST_DATABASE_URL is
 * set, else skipped). What an export holds, that an import into an empty store of the same kind
 * gives back the same store and records no event and no webhook delivery, and every refusal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { numberWaitingEvents } from '../../src/events/events.sequencer.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { insertOrder } from '../../src/orders/orders.repository.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { exportStore } from '../../src/transfer/export.js';
import { runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

const TABLES = ['pets', 'orders', 'api_keys', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts'] as const;

async function countsOf(store: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
    counts[table] = Number(rows[0]?.n);
  }
  return counts;
}

const EMPTY = Object.fromEntries(TABLES.map((table) => [table, 0]));

/** Lines of an NDJSON file, parsed. */
function recordsOf(text: string): Array<Record<string, unknown>> {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store export and import on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let source: TestDatabase;
    let dir: string;
    let exportFile: string;
    let exported: string;
    /** The id of the last pet made, deleted before the export. */
    let deletedId: number;
    const stores: TestDatabase[] = [];
    const newStore = async () => {
      const store = await createTestDatabase(dialect);
      stores.push(store);
      return store;
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'animal-store-transfer-'));
      source = await newStore();
      await issueApiKey(source.db, { name: 'reader', scopes: ['pets:read'] });
      const pets = [];
      for (let i = 0; i < 5; i++)
        pets.push(await insertPet(source.db, { name: `Rex ${i}`, categoryId: 7, status: 'available', createdAt: 1_800_000_000_000 + i }));
      await source.db.updateTable('pets').set({ status: 'pending', version: 2 }).where('id', '=', pets[1]!.id).execute();
      deletedId = pets[4]!.id;
      await source.db.deleteFrom('pets').where('id', '=', deletedId).execute();
      await insertOrder(source.db, { petId: pets[1]!.id, status: 'placed', createdAt: 1_800_000_000_100, updatedAt: 1_800_000_000_100 });
      const endpoint = await insertWebhookEndpoint(source.db, { url: 'https://receiver.example/hooks', now: 1_800_000_000_200 });
      const delivery = await insertWebhookDelivery(source.db, {
        endpointId: endpoint.id,
        state: 'pending',
        nextAttemptAt: 1_800_000_000_300,
        now: 1_800_000_000_250,
      });
      await source.db
        .insertInto('webhookAttempts')
        .values({ deliveryId: delivery.id, attemptedAt: 1_800_000_000_260, durationMs: 12, statusCode: 503, error: null, outcome: 'failed' })
        .execute();
      await source.db.updateTable('webhookDispatch').set({ fannedPosition: 3 }).execute();
      await numberWaitingEvents(source.db);
      exportFile = join(dir, 'store.ndjson');
    });
    after(async () => {
      for (const store of stores) await store.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    describe('export --output FILE', () => {
      it('writes a header, one line per row, the high-water marks and an end line, owner-only, and warns on stderr', async () => {
        const result = await runCli(['export', '--output', exportFile], { DATABASE_URL: source.url });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout, '', 'nothing on stdout when --output is given');
        assert.match(result.stderr, /webhook signing secrets and the cursor key/);
        assert.match(result.stderr, /^Exported .*4 pet, 1 order, .*: \d+ bytes in [\d.]+ s to .* \(mode 0600\)\.$/m);
        assert.equal(statSync(exportFile).mode & 0o777, 0o600);
        exported = readFileSync(exportFile, 'utf8');
        const records = recordsOf(exported);
        assert.deepEqual(records[0], {
          kind: 'header',
          format: 'animal-store-export',
          version: 1,
          leftOut: { idempotency_keys: 'answers kept for retried requests expire within a day; a retry after the move runs again' },
        });
        const kinds = (kind: string) => records.filter((record) => record.kind === kind);
        assert.equal(kinds('pet').length, 4);
        assert.deepEqual(
          kinds('pet').map((pet) => [pet.name, pet.version, pet.status]),
          [
            ['Rex 0', 1, 'available'],
            ['Rex 1', 2, 'pending'],
            ['Rex 2', 1, 'available'],
            ['Rex 3', 1, 'available'],
          ],
        );
        // 5 created, 1 updated, 1 deleted, 1 order placed; every one with its position.
        assert.equal(kinds('event').length, 8);
        assert.ok(kinds('event').every((event) => typeof event.position === 'number'));
        assert.equal(kinds('api_key').length, 1);
        assert.equal(typeof kinds('api_key')[0]!.secretHash, 'string');
        assert.equal(kinds('webhook_delivery').length, 1);
        assert.equal(kinds('webhook_attempt').length, 1);
        assert.deepEqual(kinds('webhook_dispatch'), [{ kind: 'webhook_dispatch', singleton: 1, fannedPosition: 3 }]);
        const [marks] = kinds('high_water');
        assert.equal(marks!.pets, deletedId, 'the deleted pet counts: its id is never handed out again');
        const end = records.at(-1)!;
        assert.equal(end.kind, 'end');
        assert.equal((end.counts as Record<string, number>).pet, 4);
        assert.match(String(end.sha256), /^[0-9a-f]{64}$/);
      });

      it('refuses to replace an existing file without --force, and replaces it with --force', async () => {
        const refused = await runCli(['export', '--output', exportFile], { DATABASE_URL: source.url });
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /exists already: choose another file, or add --force/);
        assert.equal(readFileSync(exportFile, 'utf8'), exported);
        const forced = await runCli(['export', '--output', exportFile, '--force'], { DATABASE_URL: source.url });
        assert.equal(forced.code, 0, forced.stderr);
        assert.equal(readFileSync(exportFile, 'utf8'), exported, 'the same store exports the same file');
      });

      it('writes the same lines when it reads the tables two rows a page (every page continues the one before)', async () => {
        let text = '';
        const collector = new Writable({
          write(chunk: Buffer, _encoding, done) {
            text += chunk.toString('utf8');
            done();
          },
        });
        await exportStore(source.db, collector, () => {}, 2);
        assert.equal(text, exported);
      });

      it('writes to stdout without --output', async () => {
        const result = await runCli(['export'], { DATABASE_URL: source.url });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout, exported);
      });
    });

    describe('import FILE into an empty store', () => {
      it('gives back the same store: the same export, no new event, no new webhook delivery', async () => {
        const target = await newStore();
        assert.deepEqual(await countsOf(target), EMPTY);
        const result = await target.whileClosed(() => runCli(['import', exportFile], { DATABASE_URL: target.url }));
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stderr, /^Imported .*4 pet, 1 order, .*8 event.*: \d+ bytes in [\d.]+ s\.$/m);
        const counts = await countsOf(target);
        assert.deepEqual(counts, await countsOf(source), 'as many rows of each table, so the import recorded no event nor delivery');
        // The target's sequencer has nothing to number: every event came with its position.
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from events where position is null`.execute(target.db);
        assert.equal(Number(rows[0]!.n), 0);
        const again = await runCli(['export'], { DATABASE_URL: target.url });
        assert.equal(again.code, 0, again.stderr);
        assert.equal(again.stdout, exported);
      });

      it('hands out new ids above the exported high-water marks and records events again', async () => {
        const target = await newStore();
        const result = await target.whileClosed(() => runCli(['import', exportFile], { DATABASE_URL: target.url }));
        assert.equal(result.code, 0, result.stderr);
        const pet = await insertPet(target.db, { name: 'New', categoryId: 1, status: 'available', createdAt: 1_800_000_001_000 });
        assert.equal(pet.id, deletedId + 1, 'above the id of the pet deleted before the export');
        await numberWaitingEvents(target.db);
        const positions = recordsOf(exported)
          .filter((record) => record.kind === 'event')
          .map((event) => Number(event.position));
        const newest = await target.db.selectFrom('events').select(['type', 'position']).orderBy('position', 'desc').limit(1).executeTakeFirstOrThrow();
        assert.deepEqual(newest, { type: 'pet.created', position: Math.max(...positions) + 1 });
      });

      it('reads the file from stdin with -', async () => {
        const target = await newStore();
        const result = await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: exported }));
        assert.equal(result.code, 0, result.stderr);
        assert.equal((await countsOf(target)).pets, 4);
      });
    });

    describe('import refuses, exits 1 and writes nothing', () => {
      const refusals: Array<[string, (text: string) => string, RegExp]> = [
        [
          'a file of a newer format version',
          (text) => text.replace('"version":1', '"version":2'),
          /format version 2, newer than this animal-store reads \(1\)/,
        ],
        ['a file without its end line', (text) => text.trimEnd().split('\n').slice(0, -1).join('\n') + '\n', /ends without its end line: it was cut short/],
        ['a file cut in the middle', (text) => text.slice(0, Math.floor(text.length / 2)), /is not a record of the export|ends without its end line/],
        ['a file whose rows were changed', (text) => text.replace('"Rex 2"', '"Rex 9"'), /SHA-256 differs from the one its end line states/],
        ['a file with a line removed', (text) => text.replace(/^\{"kind":"pet".*\n/m, ''), /the end line counts 4 pet lines, the file holds 3/],
        ['a file that is no export', () => 'hello\n', /the first line is not JSON: the file is no animal-store export/],
      ];
      for (const [what, change, message] of refusals) {
        it(`when given ${what}`, async () => {
          const target = await newStore();
          const file = join(dir, `changed-${refusals.findIndex(([name]) => name === what)}.ndjson`);
          writeFileSync(file, change(exported));
          const secrets = await target.db.selectFrom('serviceSecrets').selectAll().execute();
          const result = await target.whileClosed(() => runCli(['import', file], { DATABASE_URL: target.url }));
          assert.equal(result.code, 1, result.stderr);
          assert.match(result.stderr, message);
          assert.deepEqual(await countsOf(target), EMPTY);
          assert.deepEqual(await target.db.selectFrom('serviceSecrets').selectAll().execute(), secrets, 'not even the secrets');
        });
      }

      it('when the target is not empty, naming what it holds', async () => {
        const target = await newStore();
        await issueApiKey(target.db, { name: 'there already' });
        for (let i = 0; i < 2; i++) await insertPet(target.db, { name: `Old ${i}`, categoryId: 1, status: 'available', createdAt: 1_800_000_000_000 });
        const before = await countsOf(target);
        const result = await target.whileClosed(() => runCli(['import', exportFile], { DATABASE_URL: target.url }));
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /^animal-store: the target holds 2 pets, 1 api key and 2 events: import loads only into an empty store/m);
        assert.deepEqual(await countsOf(target), before);
      });

      it('when the file does not exist', async () => {
        const target = await newStore();
        const result = await target.whileClosed(() => runCli(['import', join(dir, 'missing.ndjson')], { DATABASE_URL: target.url }));
        assert.equal(result.code, 1);
        assert.match(result.stderr, /cannot read .*missing\.ndjson: ENOENT/);
      });
    });

    describe('usage', () => {
      it('import without FILE exits 2 with its own help', async () => {
        const result = await runCli(['import'], { DATABASE_URL: source.url });
        assert.equal(result.code, 2);
        assert.match(result.stderr, /import needs the FILE to load/);
        assert.match(result.stderr, /animal-store import FILE/);
        assert.doesNotMatch(result.stderr, /keys create/);
      });

      it('export --help shows the export command alone', async () => {
        const result = await runCli(['export', '--help'], {});
        assert.equal(result.code, 0);
        assert.match(result.stdout, /animal-store export \[--output FILE\] \[--force\]/);
        assert.doesNotMatch(result.stdout, /animal-store import/);
      });
    });
  });
}
