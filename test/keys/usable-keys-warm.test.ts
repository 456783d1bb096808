import assert from 'node:assert/strict';
import { it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { countQueries, type QueryCounts } from '../helpers/query-counter.js';
import { createTestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `the usable keys at start on ${dialect}`, {}, () => {
    it('a fresh app > reads the usable keys before its first request, so a burst of valid keys waits for no later read', async () => {
      // Before, requests arriving while the first request's read ran waited for the next read,
      // a whole refresh interval: a second of latency after every restart under load.
      const database = await createTestDatabase(dialect);
      const issued = await issueApiKey(database.db, { name: 'made before the start' });
      let counts: QueryCounts | undefined;
      const t = await createTestApp(dialect, {
        database,
        wrapDb: (db) => {
          const counted = countQueries(db);
          counts = counted.counts;
          return counted.db;
        },
      });
      try {
        assert.equal(counts!.usableKeyReads, 1, 'the usable keys were read once while the app got ready');
        const statuses = await Promise.all(
          Array.from({ length: 16 }, () => t.app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: `Bearer ${issued.key}` } })),
        );
        assert.deepEqual(
          statuses.map((r) => r.statusCode),
          Array(16).fill(200),
        );
        assert.equal(counts!.usableKeyReads, 1, 'no request read the usable keys again');
      } finally {
        await t.close();
      }
    });
  });
}
