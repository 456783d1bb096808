/**
 * The front door. The README's Quick start gives the two commands a user runs, word for word, and
 * sends those whose tests are skipped to docs/testing.md, "Running the tests", which says which
 * tests show as skipped on a plain machine and why. Each reason a test can print is quoted there
 * word for word, and every test that may be skipped takes its reason from one of these constants,
 * so a new one cannot be left out. The README's client lines are those of the client's own README
 * example, which test/client/packed-client.e2e.test.ts compiles and runs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { CHROMIUM_SKIP_REASON, CURL_SKIP_REASON, OPENSSL_SKIP_REASON, TMPFS_SKIP_REASON } from './helpers/machine-tools.js';
import { publishedSection, readPublishedDoc } from './helpers/published-docs.js';
import { REDIS_SERVER_SKIP_REASON, REDIS_SKIP_REASON } from './helpers/redis.js';
import { REPO_ROOT } from './helpers/spawn-service.js';
import { POSTGRES_SKIP_REASON } from './helpers/test-db.js';

const SKIP_REASONS = [
  POSTGRES_SKIP_REASON,
  REDIS_SKIP_REASON,
  REDIS_SERVER_SKIP_REASON,
  CHROMIUM_SKIP_REASON,
  CURL_SKIP_REASON,
  OPENSSL_SKIP_REASON,
  TMPFS_SKIP_REASON,
];
/** The `skip` options the tests may use: each is undefined/false or one of SKIP_REASONS. */
const SKIP_OPTIONS = ['NO_POSTGRES', 'NO_REDIS', 'NO_REDIS_SERVER', 'NO_CHROMIUM', 'NO_CURL', 'NO_OPENSSL'];

/** The constants a `context.skip(…)` may name. */
const SKIP_REASON_NAMES = ['TMPFS_SKIP_REASON'];

/** The bodies of the fenced code blocks of a Markdown text whose info string is `lang`. */
function fencedBlocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${lang}\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!);
}

it('README Quick start > the two commands > are given word for word, each alone in its block', () => {
  const quickStart = publishedSection('Quick start');
  assert.equal(quickStart.file, 'README.md');
  assert.deepEqual(fencedBlocks(quickStart.text, 'sh'), ['npm install && npm start\n', 'npm install && npm test\n']);
  assert.ok(quickStart.text.includes('(docs/testing.md#running-the-tests)'), 'the Quick start links to what the tests skip');
});

it('docs/testing.md "Running the tests" > the tests a plain machine skips > quotes every reason they print', () => {
  const running = publishedSection('Running the tests');
  assert.equal(running.file, 'docs/testing.md');
  assert.deepEqual(
    SKIP_REASONS.filter((reason) => !running.text.includes(`\`${reason}\``)),
    [],
  );
});

it('README "The client in five lines" > each line > is a line of the client README\'s example, which a test compiles and runs', () => {
  const [lines] = fencedBlocks(publishedSection('The client in five lines').text, 'ts');
  const [example] = fencedBlocks(readPublishedDoc('client/README.md'), 'ts');
  assert.ok(lines && example);
  const code = lines.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('import '));
  assert.ok(code.length >= 4, `${code.length} lines`);
  assert.deepEqual(
    code.filter((line) => !example.split('\n').includes(line)),
    [],
  );
  // The README may import fewer names than the example (it catches no AnimalStoreError).
  const imported = (text: string) => /^import \{ ([^}]+) \} from '@animal-store\/client';$/m.exec(text)?.[1]?.split(', ') ?? [];
  assert.ok(imported(lines).length > 0 && imported(lines).every((name) => imported(example).includes(name)), 'its import');
});

it('README > the front door > stays short (about 200 lines at most; the rest lives in docs/)', () => {
  assert.ok(readPublishedDoc('README.md').split('\n').length <= 210);
});

it('the test files > a test that may be skipped > takes its reason from a constant docs/testing.md quotes', () => {
  const files = readdirSync(join(REPO_ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && file !== 'readme-quick-start.test.ts',
  );
  const others: string[] = [];
  for (const file of files) {
    const source = readFileSync(join(REPO_ROOT, 'test', file), 'utf8');
    for (const [, option] of source.matchAll(/\bskip:\s*([^,}\s]+)/g)) if (!SKIP_OPTIONS.includes(option!)) others.push(`${file}: skip: ${option}`);
    // A skip decided inside a test (context.skip) names its reason by one of the constants too.
    for (const [, reason] of source.matchAll(/\.skip\(([^)]*)\)/g)) if (!SKIP_REASON_NAMES.includes(reason!)) others.push(`${file}: .skip(${reason})`);
  }
  assert.deepEqual(others, []);
});
