/**
 * Statement parameters for Postgres.js. It sends a value of a type it does not infer as
 * `String(value)`, which would make `1,2,3` of an array of ids (`= any($1::bigint[])`,
 * db/dialect.ts): an array goes as a PostgreSQL array literal, as pg sent it. Dates, buffers,
 * booleans, bigints and texts go as Postgres.js types them; an object goes as JSON where the
 * statement expects json or jsonb (the service keeps its JSON in text columns, written as text).
 */
export function toParameter(value: unknown): unknown {
  return Array.isArray(value) ? arrayLiteral(value) : value;
}

function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteral(item);
    const text = item instanceof Date ? item.toISOString() : typeof item === 'string' ? item : typeof item === 'bigint' ? item.toString() : JSON.stringify(item);
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

