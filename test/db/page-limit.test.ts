/** pageLimit: every page a listing may ask for (PAGE_SIZE, plus the row that tells of a next page) has a LIMIT. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pageLimit } from '../../src/db/page-limit.js';
import { PAGE_SIZE } from '../../src/pagination/page-size.js';

it('pageLimit > from PAGE_SIZE.min to PAGE_SIZE.max rows and one more > has a LIMIT, and refuses beyond', () => {
  for (let rows = PAGE_SIZE.min; rows <= PAGE_SIZE.max + 1; rows++) assert.doesNotThrow(() => pageLimit(rows), `${rows} rows`);
  assert.throws(() => pageLimit(PAGE_SIZE.max + 2), new RegExp(`a page reads 1 to ${PAGE_SIZE.max + 1} rows`));
  assert.throws(() => pageLimit(0), RangeError);
});
