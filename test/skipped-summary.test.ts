/** The last line of `npm test` (test/helpers/skipped-summary-reporter.ts): how many suites were skipped for want of PostgreSQL or Redis, and the command that runs them. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import skippedSummary from './helpers/skipped-summary-reporter.js';
import { REDIS_SKIP_REASON } from './helpers/redis.js';
import { POSTGRES_SKIP_REASON } from './helpers/test-db.js';

async function* events(skips: Array<string | undefined>) {
  for (const skip of skips) yield { type: 'test:pass', data: skip === undefined ? {} : { skip } };
}

const linesOf = async (skips: Array<string | undefined>) => {
  const lines: string[] = [];
  for await (const line of skippedSummary(events(skips))) lines.push(line);
  return lines.join('');
};

it('skipped summary > suites skipped for want of PostgreSQL and Redis > one line with their counts and the command', async () => {
  const text = await linesOf([undefined, POSTGRES_SKIP_REASON, POSTGRES_SKIP_REASON, REDIS_SKIP_REASON, 'needs openssl']);
  assert.match(text, /^\nSkipped: 3 suites or tests \(2 for want of PostgreSQL, 1 for want of Redis\)\. /);
  assert.match(text, /TEST_DATABASE_URL=\S+ TEST_REDIS_URL=\S+ npm test\n$/);
});

it('skipped summary > nothing skipped for want of a server > says nothing', async () => {
  assert.equal(await linesOf([undefined, 'needs openssl']), '');
});

it('skipped summary > the run plan arrives before the stream ends (Node 22 with --test-force-exit) > the line comes then, once', async () => {
  async function* withPlan() {
    yield* events([POSTGRES_SKIP_REASON]);
    yield { type: 'test:plan', data: { nesting: 0 } };
  }
  const lines: string[] = [];
  for await (const line of skippedSummary(withPlan())) lines.push(line);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /Skipped: 1 suites or tests \(1 for want of PostgreSQL\)/);
});
