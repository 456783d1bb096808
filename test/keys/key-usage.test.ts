import assert from 'node:assert/strict';
import { it } from 'node:test';
import { listKeys } from '../../src/keys/keys.service.js';
import { countQueries, type QueryCounts } from '../helpers/query-counter.js';
import { createTestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `a key's last use on ${dialect}`, {}, () => {
    it('100 requests > cost one write at the flush, none per request, and keys list shows the last one', async () => {
      let counts: QueryCounts | undefined;
      const start = Date.parse('2027-01-01T00:00:00Z');
      const t = await createTestApp(dialect, {
        // The timer's flush never runs during the test: it flushes on demand.
        env: { KEY_LAST_USED_FLUSH_MS: '3600000' },
        now: start,
        wrapDb: (db) => {
          const counted = countQueries(db);
          counts = counted.counts;
          return counted.db;
        },
      });
      try {
        assert.equal((await listKeys(t.database.db))[0]!.lastUsedAt, null, 'never used yet');
        for (let i = 0; i < 100; i++) {
          t.clock.now = start + i * 10;
          assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth })).statusCode, 200);
        }
        assert.equal(counts!.lastUseWrites, 0, 'no write per request');
        await t.app.keyUsage.flush();
        assert.equal(counts!.lastUseWrites, 1);
        assert.deepEqual(
          (await listKeys(t.database.db)).map((k) => k.lastUsedAt?.toISOString()),
          [new Date(start + 990).toISOString()],
        );

        // Nothing used since: the next flush writes nothing.
        await t.app.keyUsage.flush();
        assert.equal(counts!.lastUseWrites, 1);
      } finally {
        await t.close();
      }
    });

    it('a flush that arrives late > never moves a last use back', async () => {
      const start = Date.parse('2027-01-01T00:00:00Z');
      const t = await createTestApp(dialect, { env: { KEY_LAST_USED_FLUSH_MS: '3600000' }, now: start + 5000 });
      try {
        await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth });
        await t.app.keyUsage.flush();
        // Another instance's older use, flushed after.
        t.app.keyUsage.record((await listKeys(t.database.db))[0]!.id, start);
        await t.app.keyUsage.flush();
        assert.equal((await listKeys(t.database.db))[0]!.lastUsedAt?.getTime(), start + 5000);
      } finally {
        await t.close();
      }
    });

    it('a graceful stop > flushes what was gathered', async () => {
      const start = Date.parse('2027-01-01T00:00:00Z');
      const t = await createTestApp(dialect, { env: { KEY_LAST_USED_FLUSH_MS: '3600000' }, now: start });
      const db = t.database.db;
      await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth });
      await t.app.close();
      try {
        assert.equal((await listKeys(db))[0]!.lastUsedAt?.getTime(), start);
      } finally {
        await t.database.drop();
      }
    });
  });
}
