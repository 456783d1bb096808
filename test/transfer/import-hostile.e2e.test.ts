/**
 * `animal-store import` fed hostile files, once per dialect: files whose end line is recomputed
 * (as anyone who edits a file can), so the checksum passes and only the import's own checks stand
 * between the file and the store. Each is refused by the built command with a message that names
 * the line and what is wrong, exit status 1, and nothing written; none shows a raw database error.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { MAX_LINE_BYTES } from '../../src/transfer/import.js';
import { runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';
import { insertWebhookDelivery, insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

const TABLES = ['pets', 'orders', 'api_keys', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts'] as const;

async function rowCounts(store: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
    counts[table] = Number(rows[0]?.n);
  }
  return counts;
}

const EMPTY = Object.fromEntries(TABLES.map((table) => [table, 0]));

type Records = Array<Record<string, unknown>>;

/** The records as a file whose end line agrees with them (counts and SHA-256), as an editor would make it. */
function signed(records: Records, lines: string[] = records.map((record) => JSON.stringify(record))): string {
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  lines.forEach((line, i) => {
    hash.update(`${line}\n`);
    const kind = String(records[i]!.kind);
    if (kind !== 'header') counts[kind] = (counts[kind] ?? 0) + 1;
  });
  return `${lines.join('\n')}\n${JSON.stringify({ kind: 'end', counts, sha256: hash.digest('hex') })}\n`;
}

/** A copy of the records with the first one of `kind` changed by `change`. */
function changeFirst(records: Records, kind: string, change: (record: Record<string, unknown>) => Record<string, unknown>, nth = 0): Records {
  const at = records.map((record, i) => [record, i] as const).filter(([record]) => record.kind === kind)[nth]![1];
  return records.map((record, i) => (i === at ? change({ ...record }) : record));
}

function indexOfKind(records: Records, kind: string): number {
  return records.findIndex((record) => record.kind === kind);
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store import of hostile files on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let dir: string;
    /** The export's records without its end line. */
    let body: Records;
    const stores: TestDatabase[] = [];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'animal-store-hostile-'));
      const source = await createTestDatabase(dialect);
      stores.push(source);
      await issueApiKey(source.db, { name: 'reader', scopes: ['pets:read'] });
      const pets = [];
      for (let i = 0; i < 3; i++)
        pets.push(await insertPet(source.db, { name: `Rex ${i}`, categoryId: 7, status: 'available', createdAt: 1_800_000_000_000 + i }));
      await insertOrder(source.db, { petId: pets[1]!.id, status: 'placed', createdAt: 1_800_000_000_100, updatedAt: 1_800_000_000_100 });
      const endpoint = await insertWebhookEndpoint(source.db, { url: 'https://receiver.example/hooks', now: 1_800_000_000_200 });
      await insertWebhookDelivery(source.db, { endpointId: endpoint.id, state: 'pending', nextAttemptAt: 1_800_000_000_300, now: 1_800_000_000_250 });
      await numberWaitingEvents(source.db);
      let text = '';
      await exportStore(
        source.db,
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            text += chunk.toString('utf8');
            done();
          },
        }),
      );
      body = text
        .trimEnd()
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    });
    after(async () => {
      for (const store of stores) await store.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const refusedWithNothingWritten = async (text: string | Buffer, message: RegExp, options: { stdin?: boolean } = {}) => {
      const target = await createTestDatabase(dialect);
      stores.push(target);
      const secrets = await target.db.selectFrom('serviceSecrets').selectAll().execute();
      const file = join(dir, `hostile-${stores.length}.ndjson`);
      writeFileSync(file, text);
      const result = options.stdin
        ? await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: text.toString() }))
        : await target.whileClosed(() => runCli(['import', file], { DATABASE_URL: target.url }));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /nothing was imported|no animal-store export/);
      assert.deepEqual(await rowCounts(target), EMPTY);
      assert.deepEqual(await target.db.selectFrom('serviceSecrets').selectAll().execute(), secrets, 'not even the secrets');
    };

    describe('import > a file with a valid checksum but records no store holds > refuses them at their line', () => {
      const cases: Array<[string, (records: Records) => string, RegExp]> = [
        [
          'a repeated pet',
          (records) => signed(records.toSpliced(indexOfKind(records, 'pet'), 0, records[indexOfKind(records, 'pet')]!)),
          /^animal-store: line 6: the pet id \d+ is not above the one before it \(id \d+\): a repeated or misplaced record/m,
        ],
        [
          'an order before its pet',
          (records) => {
            const order = records[indexOfKind(records, 'order')]!;
            const without = records.filter((record) => record !== order);
            return signed(without.toSpliced(indexOfKind(without, 'pet'), 0, order));
          },
          /^animal-store: line 6: a line of kind pet after the order lines/m,
        ],
        ['a record of an unknown kind', (records) => signed([...records, { kind: 'dragon' }]), /is of kind "dragon", which this version does not know/],
        ['a second header', (records) => signed([...records, records[0]!]), /is of kind "header", which this version does not know/],
        [
          'an id beyond 2^53',
          (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, id: 2 ** 60 }))),
          /line 5: pet's id is not an integer from 1 to 2\^53−1/,
        ],
        ['a negative id', (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, id: -5 }))), /line 5: pet's id is -5, below 1/],
        ['an id that is no integer', (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, id: 1.5 }))), /line 5: pet's id is not an integer/],
        [
          'a negative position',
          (records) => signed(changeFirst(records, 'event', (event) => ({ ...event, position: -1 }))),
          /line \d+: event's position is -1, below 0/,
        ],
        [
          'a name with a NUL',
          (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, name: 'a\u0000b' }))),
          /line 5: pet's name holds a NUL character/,
        ],
        [
          'a name with an unpaired surrogate',
          (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, name: 'a\ud800b' }))),
          /line 5: pet's name holds an unpaired surrogate/,
        ],
        [
          'a __proto__ key',
          (records) => {
            const lines = records.map((record) => JSON.stringify(record));
            const at = indexOfKind(records, 'pet');
            lines[at] = `{"__proto__":{"polluted":true},${lines[at]!.slice(1)}`;
            return signed(records, lines);
          },
          /line 5: pet has a field "__proto__", which this format does not have/,
        ],
        ['a field the format lacks', (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, owner: 'x' }))), /line 5: pet has a field "owner"/],
        [
          'an api key whose hash is no SHA-256',
          (records) => signed(changeFirst(records, 'api_key', (key) => ({ ...key, secretHash: 'not-a-hash' }))),
          /line 4: api_key's secretHash is not a SHA-256/,
        ],
        [
          'an event whose data is not JSON',
          (records) => signed(changeFirst(records, 'event', (event) => ({ ...event, data: '{oops' }))),
          /event's data is not JSON text/,
        ],
        [
          'two events at one position',
          (records) => {
            const position = records[indexOfKind(records, 'event')]!.position;
            return signed(changeFirst(records, 'event', (event) => ({ ...event, position }), 1));
          },
          /^animal-store: lines \d+–\d+: the database refuses the records \(.*\): no store holds them together/m,
        ],
        [
          'a status no store holds',
          (records) => signed(changeFirst(records, 'pet', (pet) => ({ ...pet, status: 'eaten' }))),
          /^animal-store: lines 5–7: the database refuses the records/m,
        ],
        [
          'a high-water mark beyond 2^53',
          (records) => signed(changeFirst(records, 'high_water', (marks) => ({ ...marks, pets: 2 ** 62 }))),
          /line 2: the high_water mark of pets is not an integer/,
        ],
        [
          'a high-water mark of text',
          (records) => signed(changeFirst(records, 'high_water', (marks) => ({ ...marks, pets: 'many' }))),
          /line 2: the high_water mark of pets is not an integer/,
        ],
        [
          'a high-water line naming no table',
          (records) => signed(changeFirst(records, 'high_water', (marks) => ({ ...marks, dragons: 1 }))),
          /names "dragons", which is no table/,
        ],
        ['a second high-water line', (records) => signed([...records, records[1]!]), /the high_water line comes only once, second in the file/],
        [
          'a count of another kind in the end line',
          (records) => signed(records).replace('"counts":{', '"counts":{"__proto__":1,'),
          /the end line counts lines of kind "__proto__", which this version does not know/,
        ],
        ['a count given as text', (records) => signed(records).replace(/"pet":3/, '"pet":"3"'), /the end line's count of pet lines is not an integer/],
      ];
      for (const [what, make, message] of cases) it(`when given ${what}`, async () => refusedWithNothingWritten(make(body), message));
    });

    describe('import > a file no export could be > refuses it without reading it whole', () => {
      it(`when a line is longer than ${MAX_LINE_BYTES} bytes`, async () =>
        refusedWithNothingWritten(signed([...body.slice(0, 2), { kind: 'pet', name: 'x'.repeat(MAX_LINE_BYTES) }]), /line 3 is longer than 1,048,576 bytes/));
      it('when stdin brings megabytes without a line break', async () =>
        refusedWithNothingWritten('A'.repeat(3 * MAX_LINE_BYTES), /line 1 is longer than 1,048,576 bytes/, { stdin: true }));
      it('when the file is binary garbage', async () => {
        const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 128) % 256));
        await refusedWithNothingWritten(garbage, /line 1 is not UTF-8 text|the first line is not JSON/);
      });
      it('when a later line is not UTF-8', async () => {
        const text = signed(body);
        const at = text.indexOf('Rex 1');
        const broken = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at))]);
        await refusedWithNothingWritten(broken, /line 6 is not UTF-8 text/);
      });
      it('when the file is empty', async () => refusedWithNothingWritten('', /the file is empty/));
      it('when stdin closes in the middle of the file', async () => {
        const text = signed(body);
        await refusedWithNothingWritten(text.slice(0, text.indexOf('"kind":"order"') + 5), /is not a record of the export|ends without its end line/, {
          stdin: true,
        });
      });
    });
  });
}
