/**
 * A page of the events feed seeks its position in the positions' index and reads on from there:
 * its cost does not grow with how far the reader is into the feed. The statement explained is the
 * repository's own (selectEventsAfter).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { selectEventsAfter } from '../../src/events/events.repository.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events feed query plan on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
      // A feed of some size, of mixed types, with statistics: an empty table makes any plan cheap.
      const types = sql.lit('{pet.created,pet.updated,order.placed,order.cancelled}');
      if (dialect === 'postgres') {
        await sql`insert into events (type, data, position) select (${types}::text[])[1 + n % 4], '{}', n from generate_series(1, 20000) n`.execute(
          database.db,
        );
        await sql`analyze events`.execute(database.db);
      }
    });
    after(() => database.drop());

    const explain = async (types?: string[], upTo?: number) => {
      const query = selectEventsAfter(database.db, { after: 1000, types, limit: 20, upTo }).compile();
      const prefix = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
      return result.rows.map((row) => row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row)).join('\n');
    };

    const cases: [string, string[] | undefined, number | undefined][] = [
      ['no filter', undefined, undefined],
      ['a type filter', ['order.cancelled'], undefined],
      ['a type filter read up to a position', ['order.cancelled'], 2000],
    ];
    for (const [name, types, upTo] of cases) {
      it(`${name} > seeks the position in its index, never reads the events before it`, async () => {
        const plan = await explain(types, upTo);
        if (dialect === 'sqlite') {
          assert.match(plan, /SEARCH events USING INDEX events_position_idx \(position>\?( AND position<\?)?\)/, plan);
        } else {
          assert.match(plan, /Index Cond: \(+"position" > /, plan);
          assert.doesNotMatch(plan, /Seq Scan on events/, plan);
        }
      });
    }
  });
}
