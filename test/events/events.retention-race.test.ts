/**
 * The race between a page of the feed and a purge, made to happen at the worst moment: right
 * after the first read of the answer (the page, or the purged position), another instance purges
 * the events after the cursor. The answer must be 410 `cursor_expired`, never a page that skips
 * the purged events silently.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { databaseNowMs } from '../../src/db/dialect.js';
import { purgeEventsBefore } from '../../src/events/events.retention.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

/** Runs `onRead` once, armed, after the first select the app makes from the events or their retention row. */
class AfterFirstEventsRead implements KyselyPlugin {
  armed: (() => Promise<void>) | undefined;
  readonly #reads = new Set<unknown>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind === 'SelectQueryNode' && /^events/i.test(JSON.stringify(node.from?.froms[0] ?? '').match(/"name":"([^"]+)"/)?.[1] ?? ''))
      this.#reads.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const onRead = this.armed;
    if (onRead !== undefined && this.#reads.has(queryId)) {
      this.armed = undefined;
      await onRead();
    }
    return result;
  }
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `a purge in the middle of a feed answer on ${dialect}`, {}, () => {
    let t: TestApp;
    let other: DbHandle;
    const race = new AfterFirstEventsRead();
    before(async () => {
      t = await createTestApp(dialect, { wrapDb: (db) => db.withPlugin(race) });
      // Another instance: its own connection, so it purges while the app's holds its read.
      other = createDb(t.database.url, { poolMax: 1 });
    });
    after(async () => {
      await other.close();
      await t.close();
    });

    it('events after the cursor purged between the reads of one answer > 410 cursor_expired, not a page with a gap', async () => {
      const start = await t.app.inject({ method: 'GET', url: '/v1/events?start=latest', headers: t.auth });
      for (const name of ['A', 'B', 'C']) {
        const created = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { name, categoryId: 1 },
        });
        assert.equal(created.statusCode, 201);
      }
      let purged = 0;
      race.armed = async () => {
        purged = await purgeEventsBefore(other.db, (await databaseNowMs(other.db)) + 86_400_000, { batchSize: 2, maxBatches: 1 });
      };
      const answer = await t.app.inject({ method: 'GET', url: nextLinkOf(start.headers.link)!, headers: t.auth });
      assert.equal(purged, 2, 'the purge ran during the answer');
      assertErrorBody(answer, { status: 410, code: 'cursor_expired' });
    });
  });
}
