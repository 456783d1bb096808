/**
 * The names PostgreSQL statements are prepared under (db/postgres-named-statements.ts): one per
 * text, the same every time (so every connection and every instance agrees), and a bounded set.
 * The database side (a statement prepared once, a table changed under it) is in
 * postgres-named-statements.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STATEMENT_NAMES, statementNameOf } from '../../src/db/postgres-named-statements.js';

describe('statementNameOf', () => {
  it('names a text the same way every time, and different texts differently', () => {
    const a = statementNameOf('select * from pets where id = $1');
    assert.match(a ?? '', /^as_[A-Za-z0-9_-]{22}$/);
    assert.equal(statementNameOf('select * from pets where id = $1'), a);
    assert.notEqual(statementNameOf('select * from pets where id = $2'), a);
  });

  it('names at most MAX_STATEMENT_NAMES texts; the rest run unnamed, the named ones keep their name', () => {
    const first = statementNameOf('select 1 where $1::int = 1');
    for (let i = 0; i < MAX_STATEMENT_NAMES; i += 1) statementNameOf(`select ${i} where $1::int = 1 -- filler`);
    assert.equal(statementNameOf('select 2 where $1::int = 1 -- one too many'), undefined);
    assert.equal(statementNameOf('select 1 where $1::int = 1'), first);
  });
});
