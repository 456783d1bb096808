/**
 * `animal-store pets import` fed hostile files, and a database that fails half way, once per
 * dialect through the built command: what is refused is refused before any row with a message
 * naming the line, what fails in the database leaves nothing added, and what looks hostile but is
 * data (formula-like names) is stored as it is.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { MAX_FIELDS } from '../../src/pets/pets.import.js';
import { runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store pets import of hostile files on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let folder: string;
    let files = 0;
    const stores: TestDatabase[] = [];
    before(() => {
      folder = mkdtempSync(join(tmpdir(), 'pets-import-hostile-'));
    });
    after(async () => {
      for (const store of stores) await store.drop();
      rmSync(folder, { recursive: true, force: true });
    });
    const file = (extension: string, content: string | Buffer) => {
      const path = join(folder, `pets-${++files}.${extension}`);
      writeFileSync(path, content);
      return path;
    };
    const importInto = async (path: string) => {
      const store = await createTestDatabase(dialect);
      stores.push(store);
      const result = await runCli(['pets', 'import', path], { DATABASE_URL: store.url }, { timeoutMs: 60_000 });
      const { rows } = await sql<{ pets: number | string; events: number | string }>`select
        (select count(*) from pets) as pets, (select count(*) from events) as events`.execute(store.db);
      return { ...result, store, pets: Number(rows[0]!.pets), events: Number(rows[0]!.events) };
    };

    it('pets import > when the database fails on the second insert > exits 1, says so, and adds no pet and no event', async () => {
      const store = await createTestDatabase(dialect);
      stores.push(store);
      // A real failure of the database half way: the 800th row (the second insert of 500) is refused by it.
      if (dialect === 'sqlite')
        await sql`create trigger poison before insert on pets when new.name = 'Poison' begin select raise(abort, 'the disk is on fire'); end`.execute(store.db);
      else {
        await sql`create function poison() returns trigger language plpgsql as $$ begin
          if new.name = 'Poison' then raise exception 'the disk is on fire'; end if; return new; end $$`.execute(store.db);
        await sql`create trigger poison before insert on pets for each row execute function poison()`.execute(store.db);
      }
      const lines = Array.from({ length: 1000 }, (_, i) => `${i === 799 ? 'Poison' : `Pet ${i}`},3`);
      const path = file('csv', `name,categoryId\n${lines.join('\n')}\n`);
      const result = await runCli(['pets', 'import', path], { DATABASE_URL: store.url }, { timeoutMs: 60_000 });
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /^The database failed while adding the pets \(.*the disk is on fire.*\); it rolled back: nothing was added\. Check the database, then run the import again\.$/m,
      );
      assert.doesNotMatch(result.stderr, /^animal-store: /m, 'not the bare error of the database');
      const { rows } = await sql<{ pets: number | string; events: number | string }>`select
        (select count(*) from pets) as pets, (select count(*) from events) as events`.execute(store.db);
      assert.deepEqual([Number(rows[0]!.pets), Number(rows[0]!.events)], [0, 0]);
    });

    it('pets import > an NDJSON file of megabytes without a line break > refuses it at line 1 without reading it whole', async () => {
      const result = await importInto(file('ndjson', `{"name":"${'x'.repeat(3 * 1024 * 1024)}`));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^line 1: file: the line is longer than 262,144 bytes$/m);
      assert.equal(result.pets, 0);
    });

    it(`pets import > a CSV line of more than ${MAX_FIELDS} fields > refuses the file at that line`, async () => {
      const result = await importInto(file('csv', `name,categoryId\nRex,3\n${','.repeat(1024 * 1024)}\n`));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`^line 3: file: a line has more than ${MAX_FIELDS} fields$`, 'm'));
      assert.equal(result.pets, 0);
    });

    it('pets import > a CSV saved as Windows-1252 > refuses it, naming the line, rather than storing U+FFFD', async () => {
      const result = await importInto(file('csv', Buffer.concat([Buffer.from('name,categoryId\nRex,3\nCaf'), Buffer.from([0xe9]), Buffer.from(',3\n')])));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^line 3: file: the file is not UTF-8 text from here on/m);
      assert.equal(result.pets, 0);
    });

    it('pets import > a byte that is not UTF-8 after a character split between two reads of the file > names the line of the byte', async () => {
      // The file is read 64 KiB at a time: "é" (2 bytes) is cut by the first read's end, and the bad byte comes 3 lines later.
      const header = 'name,categoryId\n';
      const line = (name: string) => `${name},3\n`;
      const lines: string[] = [];
      let length = header.length;
      while (length + 20 < 64 * 1024) {
        const next = line(`Pet ${lines.length}`);
        lines.push(next);
        length += next.length;
      }
      const filler = 'x'.repeat(64 * 1024 - length - 1);
      const splitLine = lines.length + 2;
      const text = Buffer.concat([Buffer.from(header + lines.join('') + filler + 'é,3\nAfter,3\nAgain,3\nCaf'), Buffer.from([0xe9]), Buffer.from(',3\n')]);
      assert.equal(text.subarray(64 * 1024 - 1, 64 * 1024 + 1).toString('utf8'), 'é', 'the character straddles the first 64 KiB');
      const result = await importInto(file('csv', text));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`^line ${splitLine + 3}: file: the file is not UTF-8 text from here on`, 'm'));
      assert.equal(result.pets, 0);
    });

    for (const [ends, eol] of [
      ['CR alone (a classic Mac file)', '\r'],
      ['CRLF, one of them cut between two reads', '\r\n'],
    ] as const) {
      it(`pets import > line ends of ${ends}, a byte that is not UTF-8 after them > names the line of the byte`, async () => {
        // The file is read 64 KiB at a time: the first read ends on a line end (between the CR and the LF of a CRLF).
        const lines = [`name,categoryId${eol}`];
        let length = lines[0]!.length;
        while (length + 40 < 64 * 1024) {
          lines.push(`Pet ${lines.length},3${eol}`);
          length += lines.at(-1)!.length;
        }
        lines.push(`${'x'.repeat(64 * 1024 + eol.length - 1 - length - `,3${eol}`.length)},3${eol}`);
        const text = Buffer.concat([Buffer.from(`${lines.join('')}After,3${eol}Again,3${eol}Caf`), Buffer.from([0xe9]), Buffer.from(`,3${eol}`)]);
        assert.equal(text[64 * 1024 - 1], 0x0d, 'the first read ends with a CR');
        const result = await importInto(file('csv', text));
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, new RegExp(`^line ${lines.length + 3}: file: the file is not UTF-8 text from here on`, 'm'));
        assert.equal(result.pets, 0);
      });
    }

    for (const { byte, at, what } of [
      { byte: 0xfc, at: 64 * 1024 - 1, what: 'a byte never in UTF-8 ("ü" in Windows-1252) ending the first read' },
      { byte: 0xe9, at: 64 * 1024 - 1, what: 'a lead byte left without its character ("é" in Windows-1252) ending the first read' },
      { byte: 0x92, at: 64 * 1024, what: 'a continuation byte alone ("’" in Windows-1252) beginning the second read' },
    ]) {
      it(`pets import > ${what}, another bad line after it > names the line of the first`, async () => {
        const lines = ['name,categoryId\n'];
        let length = lines[0]!.length;
        while (length + 40 < at) {
          lines.push(`Pet ${lines.length},3\n`);
          length += lines.at(-1)!.length;
        }
        const text = Buffer.concat([
          Buffer.from(`${lines.join('')}${'x'.repeat(at - length)}`),
          Buffer.from([byte]),
          Buffer.from(',3\nAfter,3\nCaf'),
          Buffer.from([0xe9]),
          Buffer.from(',3\n'),
        ]);
        assert.equal(text[at], byte);
        const result = await importInto(file('csv', text));
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, new RegExp(`^line ${lines.length + 1}: file: the file is not UTF-8 text from here on`, 'm'));
        assert.equal(result.pets, 0);
      });
    }

    it('pets import > binary garbage in an NDJSON file > refuses it as not UTF-8', async () => {
      const result = await importInto(file('ndjson', Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 128) % 256))));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^line \d+: file: the file is not UTF-8 text from here on|^line \d+: line: /m);
      assert.equal(result.pets, 0);
    });

    it('pets import > names that look like spreadsheet formulas > stores them as they are (they are data)', async () => {
      const names = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2', '@SUM(A1)'];
      const result = await importInto(file('csv', `name,categoryId\n${names.map((name) => `"${name.replaceAll('"', '""')}",3`).join('\n')}\n`));
      assert.equal(result.code, 0, result.stderr);
      const stored = await result.store.db.selectFrom('pets').select('name').orderBy('id').execute();
      assert.deepEqual(
        stored.map((pet) => pet.name),
        names,
      );
    });

    it('pets import > a CSV with CR-only line ends > reads each line', async () => {
      const result = await importInto(file('csv', 'name,categoryId\rRex,3\rTom,4\r'));
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual([result.pets, result.events], [2, 2]);
    });
  });
}
