/** `pets import`: the RFC 4180 reader, the header, the API's checks per line, and a file with bad lines on a real SQLite store. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  checkPet,
  CsvParser,
  type CsvRecord,
  csvCandidates,
  ImportFileError,
  MAX_FIELD_LENGTH,
  MAX_PROBLEMS_SHOWN,
  ndjsonCandidate,
  importPetsFile,
} from '../../src/pets/pets.import.js';
import { importFormatOf } from '../../src/pets/pets.import-format.js';
import { setTimeout as pause } from 'node:timers/promises';
import { createTestDatabase, describeOnPostgres } from '../helpers/test-db.js';

/** Feeds the text in pieces of `size` characters, so every state is crossed at a piece boundary too. */
function parse(text: string, size = text.length || 1): CsvRecord[] {
  const parser = new CsvParser();
  const records: CsvRecord[] = [];
  for (let i = 0; i < text.length; i += size) records.push(...parser.push(text.slice(i, i + size)));
  return [...records, ...parser.end()];
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ImportFileError, String(error));
    return error.message;
  }
  assert.fail('no refusal');
}

describe('CsvParser', () => {
  const hostile = 'a,b\r\n"x, ""y""\r\nz",2\n"",\n\nlast,"q"';
  for (const size of [1, 2, 3, 1000]) {
    it(`when fed ${size} character(s) at a time > reads quotes, escapes, CRLF and LF, and tells the line each record starts on`, () => {
      assert.deepEqual(parse(`\uFEFF${hostile}`, size), [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['x, "y"\r\nz', '2'] },
        { line: 4, fields: ['', ''] },
        { line: 6, fields: ['last', 'q'] },
      ]);
    });
  }

  it('when a file is empty > reads no record', () => {
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse('\uFEFF'), []);
  });

  it('when a quote is never closed > refuses, naming the line the field starts on', () => {
    assert.equal(
      refusal(() => parse('name\n"Rex\nand more\n')),
      'line 2: file: a quoted field is not closed before the end of the file',
    );
  });

  it('when an unquoted field holds a quote > refuses it', () => {
    assert.match(
      refusal(() => parse('name\nRe"x\n')),
      /^line 2: file: a quote inside an unquoted field/,
    );
  });

  it('when text follows a closing quote > refuses it', () => {
    assert.match(
      refusal(() => parse('name\n"Rex"y\n')),
      /^line 2: file: text after the closing quote/,
    );
  });

  it('when a field is 10 MB long > refuses it once it passes the limit', () => {
    assert.equal(
      refusal(() => parse(`name\n"${'x'.repeat(10_000_000)}"\n`, 65_536)),
      `line 2: file: a field is longer than ${MAX_FIELD_LENGTH.toLocaleString('en-US')} characters`,
    );
  });
});

describe('csvCandidates', () => {
  const read = (text: string) => [...csvCandidates(parse(text), {})];

  it('when the header holds only the columns > reads no pet', () => {
    assert.deepEqual(read('name,categoryId,status\n'), []);
  });

  it('when columns come in another order > maps each by name; digits become a number, an empty status is omitted', () => {
    assert.deepEqual(read('categoryId,name,status\n3,Rex,\n'), [{ line: 2, value: { categoryId: 3, name: 'Rex' } }]);
  });

  it('when a column is unknown or a required one missing > refuses the header by name', () => {
    assert.equal(
      refusal(() => read('name,categoryId,colour,size\n')),
      'line 1: header: unknown columns "colour", "size" (the columns are name, categoryId, status)',
    );
    assert.match(
      refusal(() => read('name,status\n')),
      /^line 1: header: missing column categoryId/,
    );
    assert.match(
      refusal(() => read('name,name,categoryId\n')),
      /^line 1: header: column "name" is given twice/,
    );
  });
});

describe('checkPet', () => {
  it('when a line is good > answers the pet', () => {
    assert.deepEqual(checkPet({ line: 2, value: { name: 'Rex', categoryId: 3 } }), { pet: { name: 'Rex', categoryId: 3 } });
  });

  it('when fields are bad > answers each with the API message', () => {
    assert.deepEqual(checkPet({ line: 7, value: { name: '', categoryId: '3', status: 'lost' } }), {
      problems: [
        { line: 7, field: 'name', message: 'body.name must have at least 1 characters' },
        { line: 7, field: 'categoryId', message: 'body.categoryId must be an integer' },
        { line: 7, field: 'status', message: 'body.status must be one of: available, pending, sold' },
      ],
    });
  });

  it('when an NDJSON line holds an integer beyond 2^53 > refuses it rather than rounding it', () => {
    const candidate = ndjsonCandidate(4, '{"name":"Rex","categoryId":9007199254740993}')!;
    const checked = checkPet(candidate);
    assert.ok('problems' in checked);
    assert.match(checked.problems[0]!.message, /^line holds the number 9007199254740993, which JSON.parse cannot read exactly/);
  });
});

describe('importFormatOf', () => {
  it('when a name ends in .csv or .ndjson > answers the format; else nothing', () => {
    assert.equal(importFormatOf('a/b.CSV'), 'csv');
    assert.equal(importFormatOf('pets.ndjson'), 'ndjson');
    assert.equal(importFormatOf('pets.json'), undefined);
    assert.equal(importFormatOf('csv'), undefined);
  });
});

describe('importPetsFile', () => {
  it(`when more than ${MAX_PROBLEMS_SHOWN} lines are bad, good lines among them > keeps the first ${MAX_PROBLEMS_SHOWN} problems, counts every bad line and adds nothing`, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pets-read-'));
    const store = await createTestDatabase('sqlite');
    try {
      const path = join(folder, 'many.ndjson');
      // A good batch first, so the transaction has begun and written before the bad lines.
      const good = Array.from({ length: 600 }, () => '{"name":"ok","categoryId":1}');
      writeFileSync(
        path,
        [...good, ...Array.from({ length: 250 }, (_, i) => (i % 2 ? '{"name":"ok","categoryId":1}' : '{"name":"","categoryId":1}'))].join('\n'),
      );
      const imported = await importPetsFile(store.db, path, 'ndjson');
      assert.equal(imported.badLines, 125);
      assert.equal(imported.added, 0);
      assert.equal(imported.problems.length, MAX_PROBLEMS_SHOWN);
      assert.deepEqual(imported.problems[1], { line: 603, field: 'name', message: 'body.name must have at least 1 characters' });
      assert.equal(
        (
          await store.db
            .selectFrom('pets')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
        0,
      );
    } finally {
      await store.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describeOnPostgres('importPetsFile on PostgreSQL, from a named pipe that pauses', {}, () => {
  it('a pause longer than the idle-in-transaction timeout > every pet is added (no transaction is open while the file is read)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pets-fifo-'));
    const store = await createTestDatabase('postgres', { statementTimeoutMs: 1000 });
    try {
      const path = join(folder, 'pets.csv');
      execFileSync('mkfifo', [path]);
      const writer = (async () => {
        const out = createWriteStream(path);
        out.write('name,categoryId\n' + 'first,1\n'.repeat(600));
        // Past idle_in_transaction_session_timeout (the statement timeout): a transaction opened
        // before the file ended would be ended by the server here.
        await pause(2500);
        out.end('later,1\n'.repeat(10));
      })();
      const imported = await importPetsFile(store.db, path, 'csv');
      await writer;
      assert.equal(imported.added, 610);
    } finally {
      await store.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('docs/operations.md, Importing animals', () => {
  it('quotes the limits the command applies', () => {
    const text = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    assert.match(text, new RegExp(`longer than\\s+${MAX_FIELD_LENGTH.toLocaleString('en-US')} characters is refused`));
    assert.match(text, new RegExp(`the first ${MAX_PROBLEMS_SHOWN} lines one by one`));
  });
});
