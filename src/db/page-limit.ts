import { sql } from 'kysely';
import { PAGE_SIZE } from '../pagination/page-size.js';

/**
 * The LIMITs a listing's statement may carry, written into the statement as literals. Not a
 * bound parameter: SQLite's planner reads a bound LIMIT's value, so binding a new value
 * re-prepared the statement at every execution (a page found by id took 14 µs instead of 3.5).
 * Not any literal either: every page size would then be a statement of its own, and SQLite keeps
 * each prepared statement's memory outside the JavaScript heap, freed only when the collector
 * gets to it (RSS was seen to grow from 134 to 889 MB in 30 s of varied shapes).
 * So a page reads up to the next of these sizes (the page sizes clients use most, the default and
 * the largest among them, plus one for "is there a next page"), and the caller keeps the rows it
 * asked for (`firstRows`).
 */
const LIMITS = [1, 5, 10, PAGE_SIZE.default, 25, 50, PAGE_SIZE.max].map((size) => size + 1).sort((a, b) => a - b);

export function pageLimit(rows: number) {
  return sql.lit(pageLimitRows(rows));
}

/** The rows the statement of a page of `rows` reads: its LIMIT, one of LIMITS (a statement compiled per LIMIT is keyed on it). */
export function pageLimitRows(rows: number): number {
  const limit = LIMITS.find((candidate) => candidate >= rows);
  if (!Number.isSafeInteger(rows) || rows < 1 || limit === undefined) throw new RangeError(`a page reads 1 to ${LIMITS.at(-1)} rows (got ${rows})`);
  return limit;
}

/** The rows a page asked for, of those its statement read (pageLimit may read a few more). */
export function firstRows<T>(rows: T[], wanted: number): T[] {
  return rows.length > wanted ? rows.slice(0, wanted) : rows;
}
