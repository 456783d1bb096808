/**
 * The README's Quick start says which tests show as skipped on a plain machine and why. Each
 * reason a test can print is quoted there word for word, and every test that may be skipped
 * takes its reason from one of these constants, so a new one cannot be left out of the README.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { CHROMIUM_SKIP_REASON, CURL_SKIP_REASON, TMPFS_SKIP_REASON } from './helpers/machine-tools.js';
import { REDIS_SERVER_SKIP_REASON, REDIS_SKIP_REASON } from './helpers/redis.js';
import { REPO_ROOT } from './helpers/spawn-service.js';
import { POSTGRES_SKIP_REASON, PREPARED_TRANSACTIONS_SKIP_REASON } from './helpers/test-db.js';

const SKIP_REASONS = [POSTGRES_SKIP_REASON, PREPARED_TRANSACTIONS_SKIP_REASON, REDIS_SKIP_REASON, REDIS_SERVER_SKIP_REASON, CHROMIUM_SKIP_REASON, CURL_SKIP_REASON, TMPFS_SKIP_REASON];
/** The `skip` options the tests may use: each is undefined/false or one of SKIP_REASONS. */
const SKIP_OPTIONS = ['NO_POSTGRES', 'NO_REDIS', 'NO_REDIS_SERVER', 'NO_CHROMIUM', 'NO_CURL'];

/** The constants a `context.skip(…)` may name. */
const SKIP_REASON_NAMES = ['PREPARED_TRANSACTIONS_SKIP_REASON', 'TMPFS_SKIP_REASON'];

function quickStart(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start\n');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

it('README Quick start > the tests a plain machine skips > quotes every reason they print', () => {
  const text = quickStart();
  assert.deepEqual(SKIP_REASONS.filter((reason) => !text.includes(`\`${reason}\``)), []);
});

it('the test files > a test that may be skipped > takes its reason from a constant the Quick start quotes', () => {
  const files = readdirSync(join(REPO_ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && file !== 'readme-quick-start.test.ts');
  const others: string[] = [];
  for (const file of files) {
    const source = readFileSync(join(REPO_ROOT, 'test', file), 'utf8');
    for (const [, option] of source.matchAll(/\bskip:\s*([^,}\s]+)/g)) if (!SKIP_OPTIONS.includes(option!)) others.push(`${file}: skip: ${option}`);
    // A skip decided inside a test (context.skip) names its reason by one of the constants too.
    for (const [, reason] of source.matchAll(/\.skip\(([^)]*)\)/g)) if (!SKIP_REASON_NAMES.includes(reason!)) others.push(`${file}: .skip(${reason})`);
  }
  assert.deepEqual(others, []);
});
