/**
 * The test suite's own promise: without PostgreSQL, the suites that need it say "skipped" in
 * the summary instead of vanishing from it, so a run without TEST_DATABASE_URL cannot pass for
 * a complete one.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { it } from 'node:test';
import { childEnv } from './helpers/child-processes.js';
import { REPO_ROOT, SUITE_STUCK_MS } from './helpers/spawn-service.js';

const POSTGRES_ONLY_FILES = [
  'test/db/outage.test.ts',
  'test/pets/pets.concurrency.test.ts',
  'test/e2e/missing-database.e2e.test.ts',
  // Two suites: with REDIS_URL and without.
  'test/events/events.open-transaction.processes.e2e.test.ts',
  'test/transfer/round-trip.e2e.test.ts',
];

it('suites that need PostgreSQL > when TEST_DATABASE_URL is unset > are counted as skipped, none as passed', { timeout: SUITE_STUCK_MS }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...POSTGRES_ONLY_FILES], {
    cwd: REPO_ROOT,
    env: childEnv({ TEST_DATABASE_URL: undefined }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let tap = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (tap += chunk));
  const [code] = await once(child, 'close');
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1]);
  assert.deepEqual({ code, skipped: count('skipped'), passed: count('pass'), failed: count('fail') }, { code: 0, skipped: 7, passed: 0, failed: 0 }, tap);
});
