/**
 * End to end, `animal-store pets import FILE`: the built command on a real database (a SQLite
 * file; a fresh PostgreSQL schema when TEST_DATABASE_URL is set), while a real `serve` answers
 * over HTTP on the same database. The same assertions run on both dialects.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { call, type Pet, servedSuite, uniqueCategory } from '../helpers/cli-e2e.js';
import { runCli, type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import SQLite from 'better-sqlite3';
import { withDb } from '../../src/db/create-db.js';
import { dialectOf, sqlitePathOf } from '../../src/db/database-url.js';

const folder = mkdtempSync(join(tmpdir(), 'pets-import-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
function file(extension: string, content: string): string {
  const path = join(folder, `pets-${++files}.${extension}`);
  writeFileSync(path, content);
  return path;
}

/** Whether another session has written pets in a transaction not yet committed: it holds the write lock (SQLite), a row lock of pets (PostgreSQL). */
async function writingPets(databaseUrl: string): Promise<boolean> {
  if (dialectOf(databaseUrl) === 'sqlite') {
    const probe = new SQLite(sqlitePathOf(databaseUrl), { timeout: 0 });
    try {
      probe.exec('BEGIN IMMEDIATE');
      probe.exec('ROLLBACK');
      return false;
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
      throw error;
    } finally {
      probe.close();
    }
  }
  return withDb(databaseUrl, 10_000, async (db) => {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from pg_locks l join pg_class c on c.oid = l.relation
      where c.relname = 'pets' and c.relnamespace = current_schema()::regnamespace and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`.execute(db);
    return Number(rows[0]?.n) > 0;
  });
}

/** How many pets and pet.created events the store holds, and how many events still wait for a feed position. */
async function counts(databaseUrl: string): Promise<{ pets: number; created: number; unpositioned: number }> {
  return withDb(databaseUrl, 10_000, async (db) => {
    const { rows } = await sql<{ pets: number | string; created: number | string; unpositioned: number | string }>`select
      (select count(*) from pets) as pets,
      (select count(*) from events where type = 'pet.created') as created,
      (select count(*) from events where position is null) as unpositioned`.execute(db);
    return { pets: Number(rows[0]!.pets), created: Number(rows[0]!.created), unpositioned: Number(rows[0]!.unpositioned) };
  });
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store pets import on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let server: RunningService;
    let key: string;
    let databaseUrl: string;
    servedSuite(dialect, (suite) => ({ server, key, databaseUrl } = suite));
    const importing = (path: string) => runCli(['pets', 'import', path], { DATABASE_URL: databaseUrl }, { timeoutMs: 60_000 });

    describe('when the CSV is good (a BOM, CRLF, quoted commas, quotes and line breaks, columns in any order)', () => {
      it('adds every pet with its pet.created event, and serve lists them over HTTP', async () => {
        const categoryId = uniqueCategory();
        const before = await counts(databaseUrl);
        const path = file(
          'csv',
          `\uFEFFstatus,categoryId,name\r\nsold,${categoryId},"Rex, the ""big"" one"\r\n,${categoryId},"two\r\nlines"\r\npending,${categoryId},Plain\r\n`,
        );
        const result = await importing(path);
        assert.equal(result.code, 0, result.stderr);
        // Not a terminal: no progress bar, only the summary.
        assert.match(result.stderr, new RegExp(`^Added 3 pets from ${path.replace(/[.\\/]/g, '\\$&')} in \\d+\\.\\d s\\.\\n$`));
        assert.equal(result.stdout, '');
        const afterImport = await counts(databaseUrl);
        // The events have their feed positions when the command ends, without waiting for serve's sequencer.
        assert.deepEqual(afterImport, { pets: before.pets + 3, created: before.created + 3, unpositioned: 0 });
        const listed = await call(server, 'GET', `/v1/pets?categoryId=${categoryId}&limit=10`, { key });
        assert.equal(listed.status, 200, listed.text);
        assert.deepEqual(
          (listed.body as Pet[]).map(({ name, status }) => ({ name, status })),
          [
            { name: 'Rex, the "big" one', status: 'sold' },
            { name: 'two\r\nlines', status: 'available' },
            { name: 'Plain', status: 'pending' },
          ],
        );
      });
    });

    describe('when the CSV has bad lines', () => {
      it('tells each as line N: field: message (N of the line the record starts on), exits 1 and adds nothing', async () => {
        const before = await counts(databaseUrl);
        const path = file('csv', 'name,categoryId,status\n"Good\nover two lines",3,sold\n,3,sold\nOk,x,sold\nBob,9007199254740993,lost\nShort,1\nFine,4,\n');
        const result = await importing(path);
        assert.equal(result.code, 1, result.stderr);
        assert.equal(
          result.stderr,
          [
            'line 4: name: body.name must have at least 1 characters',
            'line 5: categoryId: body.categoryId must be an integer',
            'line 6: categoryId: body.categoryId must be at most 9007199254740991',
            'line 6: status: body.status must be one of: available, pending, sold',
            'line 7: line: has 2 fields; the header has 3',
            `4 bad lines in ${path}; nothing was added.`,
            '',
          ].join('\n'),
        );
        assert.deepEqual(await counts(databaseUrl), before);
      });

      it('refuses an unknown column by name, and nothing is added', async () => {
        const before = await counts(databaseUrl);
        const result = await importing(file('csv', 'name,categoryId,colour\nRex,3,red\n'));
        assert.equal(result.code, 1, result.stderr);
        assert.equal(result.stderr, 'line 1: header: unknown column "colour" (the columns are name, categoryId, status)\nNothing was added.\n');
        assert.deepEqual(await counts(databaseUrl), before);
      });
    });

    describe('when the file is NDJSON', () => {
      it('adds every pet of a good file', async () => {
        const categoryId = uniqueCategory();
        const before = await counts(databaseUrl);
        const result = await importing(file('ndjson', `{"name":"A","categoryId":${categoryId}}\n\n{"name":"B","categoryId":${categoryId},"status":"sold"}\n`));
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(await counts(databaseUrl), { pets: before.pets + 2, created: before.created + 2, unpositioned: 0 });
      });

      it('reads with the API strictness: no text as integer, no rounded number, no unknown field; adds nothing', async () => {
        const before = await counts(databaseUrl);
        const path = file(
          'ndjson',
          '{"name":"A","categoryId":"3"}\n{"name":"B","categoryId":9007199254740993}\n{"name":"C","categoryId":3,"colour":"red"}\nnot json\n{"name":"D","categoryId":3}\n',
        );
        const result = await importing(path);
        assert.equal(result.code, 1, result.stderr);
        const lines = result.stderr.split('\n');
        assert.equal(lines[0], 'line 1: categoryId: body.categoryId must be an integer');
        assert.match(lines[1]!, /^line 2: line: line holds the number 9007199254740993, which JSON.parse cannot read exactly/);
        assert.equal(lines[2], 'line 3: colour: body.colour is not a known field');
        assert.match(lines[3]!, /^line 4: line: line is not valid JSON: /);
        assert.equal(lines[4], `4 bad lines in ${path}; nothing was added.`);
        assert.deepEqual(await counts(databaseUrl), before);
      });
    });

    describe('when the CSV comes through a pipe (a FIFO), written as the import reads it', () => {
      it('holds no write lock and adds nothing while the file is still open, then adds every pet in one commit', async () => {
        const categoryId = uniqueCategory();
        const before = await counts(databaseUrl);
        const path = join(folder, `pets-${++files}.csv`);
        execFileSync('mkfifo', [path]);
        const done = importing(path);
        const pipe = createWriteStream(path);
        const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `"Piped ${from + i}, of ${to}",${categoryId}\n`).join('');
        // Far more than a pipe holds (64 KiB): once the write is handed over, the import has read most of it.
        await new Promise<void>((resolve, reject) => pipe.write(`name,categoryId\n${rows(0, 10_000)}`, (error) => (error ? reject(error) : resolve())));
        // A slow input must not hold the store: the transaction opens only once the file has ended.
        assert.equal(await writingPets(databaseUrl), false, 'no write lock while the file is open');
        assert.deepEqual(await counts(databaseUrl), before);
        pipe.end(rows(10_000, 12_000));
        const result = await done;
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(await counts(databaseUrl), { pets: before.pets + 12_000, created: before.created + 12_000, unpositioned: 0 });
      });
    });

    describe('when the file is neither .csv nor .ndjson', () => {
      it('exits 2 with the command usage', async () => {
        const result = await importing(file('txt', 'name,categoryId\nRex,3\n'));
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /^animal-store: pets import reads \.csv or \.ndjson files/);
        assert.match(result.stderr, /animal-store pets import FILE\.csv\|FILE\.ndjson/);
      });
    });
  });
}

describe('animal-store pets --help', () => {
  it('shows the import usage alone', async () => {
    for (const args of [
      ['pets', '--help'],
      ['pets', 'import', '--help'],
    ]) {
      const result = await runCli(args, {});
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Usage:\n {2}animal-store pets import FILE\.csv\|FILE\.ndjson/);
      assert.doesNotMatch(result.stdout, /keys create/);
    }
  });
});
