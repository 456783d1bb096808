/**
 * A page of the events feed seeks its position in the (txn, id) index and reads on from there:
 * its cost does not grow with how far the reader is into the feed. The statement explained is the
 * repository's own (selectEventsAfter).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { selectEventsAfter } from '../../src/events/events.repository.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events feed query plan on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    const explain = async (types?: string[], upTo?: { txn: number; id: number }) => {
      const query = selectEventsAfter(database.db, { after: { txn: dialect === 'sqlite' ? 0 : 5, id: 1000 }, types, limit: 20, upTo }).compile();
      const prefix = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
      return result.rows.map((row) => row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row)).join('\n');
    };

    const cases: [string, string[] | undefined, { txn: number; id: number } | undefined][] = [
      ['no filter', undefined, undefined],
      ['a type filter', ['order.cancelled'], undefined],
      ['a type filter read up to a position', ['order.cancelled'], { txn: dialect === 'sqlite' ? 0 : 9, id: 2000 }],
    ];
    for (const [name, types, upTo] of cases) {
      it(`${name} > seeks the position on both columns of the index, never reads the events before it`, async () => {
        const plan = await explain(types, upTo);
        if (dialect === 'sqlite') {
          // `(txn>?)` alone: SQLite seeks txn only and reads every event of txn 0 (all of them on
          // SQLite) before the cursor's id; 10 ms a page at 200,000 events, on the event loop.
          assert.match(plan, /SEARCH events USING (COVERING )?INDEX events_txn_id_idx \(txn=\? AND id>\?( AND id<\?)?\)|SEARCH events USING INTEGER PRIMARY KEY \(rowid>\?\)/, plan);
        } else {
          assert.match(plan, /Index Cond: \(+ROW\(txn, id\) > ROW\(/, plan);
          assert.doesNotMatch(plan, /Seq Scan on events/, plan);
        }
      });
    }
  });
}
