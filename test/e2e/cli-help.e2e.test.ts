/**
 * End to end: what the built command (`dist/cli.js`) says to an operator who asks for help or its
 * version, or who types an option as other servers take it. None of these needs a database: each
 * run points at a file that must still not exist afterwards, so nothing was started or migrated.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('animal-store help, version and mistyped options', { timeout: SUITE_STUCK_MS }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-cli-help-'));
  const databaseFile = join(dir, 'never-made.db');
  const env = { DATABASE_URL: `sqlite:${databaseFile}` };
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (args: string[]) => {
    const result = await runCli(args, env);
    assert.equal(existsSync(databaseFile), false, `animal-store ${args.join(' ')} touched the database`);
    return result;
  };

  for (const args of [['--version'], ['-v'], ['version']]) {
    it(`animal-store ${args.join(' ')} > prints the version from package.json and exits 0`, async () => {
      const result = await run(args);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `animal-store ${VERSION}\n`);
      assert.equal(result.stderr, '');
    });
  }

  for (const args of [['help'], ['--help'], ['-h']]) {
    it(`animal-store ${args.join(' ')} > prints the whole usage on stdout and exits 0`, async () => {
      const result = await run(args);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Usage:\n {2}animal-store \[serve\]/);
      for (const command of ['migrate', 'keys create', 'keys list', 'keys revoke', 'help', '--version'])
        assert.match(result.stdout, new RegExp(`animal-store ${command}`));
      assert.equal(result.stderr, '');
    });
  }

  for (const [args, shown, notShown] of [
    [['serve', '--help'], ['animal-store [serve]'], ['keys create', 'migrate']],
    [['help', 'serve'], ['animal-store [serve]'], ['keys create', 'migrate']],
    [['migrate', '-h'], ['animal-store migrate'], ['keys', '[serve]']],
    [
      ['keys', '--help'],
      ['keys create', 'keys list', 'keys revoke'],
      ['[serve]', 'migrate'],
    ],
    [
      ['keys', 'help'],
      ['keys create', 'keys list', 'keys revoke'],
      ['[serve]', 'migrate'],
    ],
    [
      ['help', 'keys'],
      ['keys create', 'keys list', 'keys revoke'],
      ['[serve]', 'migrate'],
    ],
    [['keys', 'create', '--help'], ['keys create --name NAME'], ['keys list', 'keys revoke', '[serve]']],
    [['help', 'keys', 'revoke'], ['keys revoke ID'], ['keys create', 'keys list']],
  ] as const) {
    it(`animal-store ${args.join(' ')} > prints that command's help alone on stdout and exits 0`, async () => {
      const result = await run([...args]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Usage:\n/);
      for (const text of shown) assert.ok(result.stdout.includes(text), `${text} in:\n${result.stdout}`);
      for (const text of notShown) assert.ok(!result.stdout.includes(`animal-store ${text}`), `${text} not in:\n${result.stdout}`);
      assert.equal(result.stderr, '');
    });
  }

  it('animal-store keys create --json > exits 2 naming the options keys create takes, and shows its help alone', async () => {
    const result = await run(['keys', 'create', '--name', 'x', '--json']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.split('\n')[0], 'animal-store: keys create does not take --json (it takes --name, --expires-in, --scope)');
    assert.ok(result.stderr.includes('animal-store keys create --name NAME'));
    assert.ok(!result.stderr.includes('animal-store keys list'));
  });

  for (const [args, variable, value] of [
    [['serve', '--port', '9000'], 'PORT', '9000'],
    [['serve', '--port=9000'], 'PORT', '9000'],
    [['--host', '0.0.0.0'], 'HOST', '0.0.0.0'],
    [['serve', '--database-url', 'sqlite:./x.db'], 'DATABASE_URL', 'sqlite:./x.db'],
    [['serve', '--log-level'], 'LOG_LEVEL', '…'],
  ] as const) {
    it(`animal-store ${args.join(' ')} > exits 2 saying to set ${variable} in the environment instead`, async () => {
      const result = await run([...args]);
      assert.equal(result.code, 2, result.stderr);
      const option = args.find((arg) => arg.startsWith('--'))!.split('=')[0];
      assert.equal(
        result.stderr.split('\n')[0],
        `animal-store: there is no option ${option}; the service takes its settings from the environment: ${variable}=${value} animal-store serve`,
      );
      assert.doesNotMatch(result.stderr, /positional argument/);
      assert.match(result.stderr, /Usage:/);
    });
  }

  it("animal-store serve --frobnicate > exits 2 naming the unknown option and serve's own, without Node's parser text", async () => {
    const result = await run(['serve', '--frobnicate']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.split('\n')[0], 'animal-store: there is no option --frobnicate (serve takes --no-bootstrap-key, --workers)');
    assert.ok(!result.stderr.includes('animal-store keys create'));
  });

  it('animal-store keys list --frobnicate > names the options of keys list', async () => {
    const result = await run(['keys', 'list', '--frobnicate']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.split('\n')[0], 'animal-store: there is no option --frobnicate (keys list takes --json)');
  });

  for (const url of ['nonsense', 'store', 'mysql://x/y']) {
    it(`DATABASE_URL=${JSON.stringify(url)} animal-store migrate > exits 1 naming the accepted forms, and makes no file`, async () => {
      const result = await runCli(['migrate'], { DATABASE_URL: url }, { cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /DATABASE_URL must be sqlite:PATH, postgres:\/\/… \(or postgresql:\/\/…\), or a file path that contains a \/ or ends in \.db, \.sqlite or \.sqlite3/,
      );
      assert.equal(existsSync(join(dir, url)), false);
    });
  }

  for (const value of ['-1', '-0', '1.5', 'many']) {
    it(`animal-store serve --workers ${value} > exits 2 saying workers must be a whole number from 0 to 256`, async () => {
      const result = await run(['serve', '--workers', value]);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr.split('\n')[0], `animal-store: --workers takes a whole number from 0 to 256, 0 for one per core (got ${value})`);
      assert.doesNotMatch(result.stderr, /ambiguous/);
    });
  }

  it('animal-store serve --workers > exits 2 saying the option needs its value', async () => {
    const result = await run(['serve', '--workers']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.split('\n')[0], 'animal-store: --workers needs a value: --workers N');
  });

  it('animal-store keys list --json=yes > exits 2 saying the flag takes no value', async () => {
    const result = await run(['keys', 'list', '--json=yes']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.split('\n')[0], 'animal-store: --json takes no value');
  });
});
