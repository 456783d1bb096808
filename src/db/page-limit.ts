import { sql } from 'kysely';

/**
 * A page's LIMIT written into the statement as a literal, not bound as a parameter. SQLite's
 * planner reads a bound LIMIT's value, so binding a new value re-prepares the statement at every
 * execution: a page found by id took 14 µs instead of 3.5 (docs/performance.md). The value is a
 * validated whole number (at most the largest page size plus one), so the statements stay few.
 */
export function pageLimit(rows: number) {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new RangeError(`a page limit must be a whole number from 1 (got ${rows})`);
  return sql.lit(rows);
}
