/**
 * Like postgres-only-suites.test.ts: without TEST_REDIS_URL, the suites that share counts through
 * the machine's Redis say "skipped" in the summary instead of vanishing from it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { it } from 'node:test';
import { childEnv } from './helpers/child-processes.js';
import { REPO_ROOT, SUITE_STUCK_MS } from './helpers/spawn-service.js';

const REDIS_ONLY_FILES = ['test/e2e/redis-fleet.e2e.test.ts'];

it('suites that need Redis > when TEST_REDIS_URL is unset > are counted as skipped, none as passed', { timeout: SUITE_STUCK_MS }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...REDIS_ONLY_FILES], {
    cwd: REPO_ROOT,
    env: childEnv({ TEST_REDIS_URL: undefined }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let tap = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (tap += chunk));
  const [code] = await once(child, 'close');
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1]);
  assert.deepEqual({ code, skipped: count('skipped'), passed: count('pass'), failed: count('fail') }, { code: 0, skipped: 1, passed: 0, failed: 0 }, tap);
});
