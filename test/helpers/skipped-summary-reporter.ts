/**
 * A second reporter for `npm test`: when suites were skipped for want of PostgreSQL or Redis
 * (TEST_DATABASE_URL, TEST_REDIS_URL unset), the run ends with one line saying how many and the
 * exact command that runs them too. Skips for other reasons (a tool missing on the machine) are
 * named by the spec reporter where they happen. Skips are told apart by the variable their reason
 * names (test-db.ts POSTGRES_SKIP_REASON, redis.ts REDIS_SKIP_REASON); this module imports nothing,
 * since the test runner loads reporters before the TypeScript loader resolves the tests' imports.
 */
interface TestEvent {
  type: string;
  data: { skip?: string | boolean; file?: string; nesting?: number };
}

const COMMAND = 'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_REDIS_URL=redis://127.0.0.1:6379 npm test';

export default async function* skippedSummary(events: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  let postgres = 0;
  let redis = 0;
  let told = false;
  const line = () => {
    told = true;
    if (postgres + redis === 0) return '';
    const parts = [postgres > 0 ? `${postgres} for want of PostgreSQL` : '', redis > 0 ? `${redis} for want of Redis` : ''].filter(Boolean);
    return `\nSkipped: ${postgres + redis} suites or tests (${parts.join(', ')}). To run them too (with your own servers' URLs): ${COMMAND}\n`;
  };
  for await (const event of events) {
    // The whole run's plan comes last; with --test-force-exit, Node 22 ends the process before the stream's end reaches a reporter.
    if (event.type === 'test:plan' && event.data.file === undefined && event.data.nesting === 0) {
      const text = line();
      if (text) yield text;
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const reason = typeof event.data.skip === 'string' ? event.data.skip : '';
    if (reason.includes('TEST_DATABASE_URL is not set')) postgres += 1;
    else if (reason.includes('TEST_REDIS_URL is not set')) redis += 1;
  }
  if (!told) {
    const text = line();
    if (text) yield text;
  }
}
