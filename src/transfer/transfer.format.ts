/**
 * The export format (docs/operations.md, "The export format"): NDJSON, a header line, one line per
 * stored row, an end line with counts and the SHA-256 of every line before it. One description of
 * which tables are moved, with their columns in a fixed order, so an export reads the same whatever
 * database wrote it: the round trip SQLite → PostgreSQL → SQLite gives the same lines.
 */

export const FORMAT_NAME = 'animal-store-export';
/** Raised when a change means an older `import` would load the file wrongly; an older version stays readable. */
export const FORMAT_VERSION = 1;

/** Left out of every export, and why: the header says so, for whoever reads a file. */
export const LEFT_OUT: Record<string, string> = {
  idempotency_keys: 'answers kept for retried requests expire within a day; a retry after the move runs again',
};

/** `json`: text holding one JSON value (an event's data, a delivery's payload), checked to parse on import. */
type ColumnType = 'int' | 'int?' | 'text' | 'text?' | 'json' | 'json?';

export interface KindOfTable {
  /** The `kind` of its lines. */
  kind: string;
  table: string;
  /** Column (snake_case, as stored) → its type; lines carry them camelCased, in this order. */
  columns: Record<string, ColumnType>;
  /** The unique key the export pages on, in order. */
  key: readonly string[];
  /** Ids handed out by the database: the import keeps them, and new ones start above the high-water mark. */
  generatedId?: boolean;
  /** Only some stores have the table (events_legacy_positions: PostgreSQL stores upgraded in place). */
  optional?: boolean;
  /** Text columns whose every value has this form (a key's hash): a file that says otherwise is refused. */
  forms?: Record<string, { pattern: RegExp; says: string }>;
}

/** In the order of the file, which is the order an import inserts them in (a delivery after its endpoint). */
export const KINDS: readonly KindOfTable[] = [
  { kind: 'service_secret', table: 'service_secrets', key: ['name'], columns: { name: 'text', value: 'text', created_at: 'int' } },
  {
    kind: 'api_key',
    table: 'api_keys',
    key: ['id'],
    generatedId: true,
    columns: {
      id: 'int',
      name: 'text',
      prefix: 'text',
      secret_hash: 'text',
      created_at: 'int',
      expires_at: 'int?',
      revoked_at: 'int?',
      scopes: 'text',
      last_used_at: 'int?',
    },
    forms: { secret_hash: { pattern: /^[0-9a-f]{64}$/, says: 'a SHA-256 in 64 lowercase hexadecimal digits' } },
  },
  {
    kind: 'pet',
    table: 'pets',
    key: ['id'],
    generatedId: true,
    columns: { id: 'int', name: 'text', name_key: 'text', category_id: 'int', status: 'text', created_at: 'int', version: 'int' },
  },
  {
    kind: 'order',
    table: 'orders',
    key: ['id'],
    generatedId: true,
    columns: { id: 'int', pet_id: 'int', status: 'text', created_at: 'int', updated_at: 'int' },
  },
  {
    kind: 'webhook_endpoint',
    table: 'webhook_endpoints',
    key: ['id'],
    generatedId: true,
    columns: {
      id: 'int',
      url: 'text',
      description: 'text?',
      events: 'json',
      allowed_types: 'json',
      status: 'text',
      disabled_reason: 'text?',
      secret: 'text',
      previous_secret: 'text?',
      previous_secret_expires_at: 'int?',
      created_by_key_id: 'int?',
      failing_since: 'int?',
      created_at: 'int',
      updated_at: 'int',
    },
  },
  {
    kind: 'event',
    table: 'events',
    key: ['id'],
    generatedId: true,
    columns: { id: 'int', position: 'int?', type: 'text', occurred_at: 'int', data: 'json', changed: 'json?' },
  },
  {
    kind: 'webhook_delivery',
    table: 'webhook_deliveries',
    key: ['id'],
    generatedId: true,
    columns: {
      id: 'int',
      endpoint_id: 'int',
      message_id: 'text',
      event_id: 'int?',
      event_type: 'text',
      payload: 'json',
      state: 'text',
      attempts: 'int',
      next_attempt_at: 'int?',
      lease_owner: 'text?',
      lease_until: 'int?',
      created_at: 'int',
      last_attempt_at: 'int?',
    },
  },
  {
    kind: 'webhook_attempt',
    table: 'webhook_attempts',
    key: ['id'],
    generatedId: true,
    columns: { id: 'int', delivery_id: 'int', attempted_at: 'int', duration_ms: 'int', status_code: 'int?', error: 'text?', outcome: 'text' },
  },
  { kind: 'events_retention', table: 'events_retention', key: ['singleton'], columns: { singleton: 'int', purged_position: 'int', purged_types: 'json' } },
  { kind: 'webhook_dispatch', table: 'webhook_dispatch', key: ['singleton'], columns: { singleton: 'int', fanned_position: 'int' } },
  {
    kind: 'events_legacy_position',
    table: 'events_legacy_positions',
    key: ['txn', 'id'],
    optional: true,
    columns: { txn: 'int', id: 'int', position: 'int' },
  },
];

/** The line after the rows: for each table with generated ids, the largest id ever handed out (0: none). */
export const HIGH_WATER_KIND = 'high_water';
export const END_KIND = 'end';

/** What a target must not hold, in the words of the refusal. */
export const MUST_BE_EMPTY: ReadonlyArray<{ table: string; one: string; many: string }> = [
  { table: 'pets', one: 'pet', many: 'pets' },
  { table: 'orders', one: 'order', many: 'orders' },
  { table: 'api_keys', one: 'api key', many: 'api keys' },
  { table: 'webhook_endpoints', one: 'webhook endpoint', many: 'webhook endpoints' },
  { table: 'events', one: 'event', many: 'events' },
];

export interface Header {
  kind: 'header';
  format: typeof FORMAT_NAME;
  version: number;
  leftOut: Record<string, string>;
}

export function camelCase(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** A stored row as its line's object: columns in the kind's order, integers as numbers (PostgreSQL may give bigints as strings). */
export function recordOf(kind: KindOfTable, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = { kind: kind.kind };
  for (const [column, type] of Object.entries(kind.columns)) {
    const value = row[camelCase(column)];
    record[camelCase(column)] =
      value === null || value === undefined ? null : type.startsWith('int') ? Number(value) : typeof value === 'string' ? value : JSON.stringify(value);
  }
  return record;
}

/**
 * The values of a line for its table's columns, or why they do not fit. Only what a store can hold
 * passes: exactly the kind's fields, integers that JSON readers keep exactly and that are never
 * negative (ids from 1), text without NUL (PostgreSQL cannot store it; the API refuses it) or
 * unpaired surrogates (both drivers would store them changed), JSON columns that parse.
 */
export function valuesOf(kind: KindOfTable, record: Record<string, unknown>): unknown[] | string {
  const fields = Object.keys(kind.columns).map(camelCase);
  const stray = Object.keys(record).find((field) => field !== 'kind' && !fields.includes(field));
  if (stray !== undefined) return `${kind.kind} has a field ${JSON.stringify(stray)}, which this format does not have`;
  const values: unknown[] = [];
  for (const [column, type] of Object.entries(kind.columns)) {
    const field = camelCase(column);
    const value = record[field];
    if (value === null || value === undefined) {
      if (!type.endsWith('?')) return `${kind.kind} has no ${field}`;
      values.push(null);
      continue;
    }
    const problem = type.startsWith('int')
      ? integerProblem(value, kind.generatedId && column === 'id' ? 1 : 0)
      : textProblem(value, type.startsWith('json'), kind.forms?.[column]);
    if (problem !== undefined) return `${kind.kind}'s ${field} ${problem}`;
    values.push(value);
  }
  return values;
}

/** Why `value` is no integer a store holds, or undefined. */
export function integerProblem(value: unknown, minimum: number): string | undefined {
  if (!Number.isSafeInteger(value)) return `is not an integer from ${minimum} to 2^53−1`;
  if ((value as number) < minimum) return `is ${String(value)}, below ${minimum}`;
  return undefined;
}

/** With the u flag a pair reads as one code point: only a surrogate alone matches. */
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

function textProblem(value: unknown, json: boolean, form: { pattern: RegExp; says: string } | undefined): string | undefined {
  if (typeof value !== 'string') return 'is not a text';
  if (value.includes('\u0000')) return 'holds a NUL character, which no store holds';
  if (UNPAIRED_SURROGATE.test(value)) return 'holds an unpaired surrogate, which no store holds';
  if (form && !form.pattern.test(value)) return `is not ${form.says}`;
  if (json) {
    try {
      JSON.parse(value);
    } catch {
      return 'is not JSON text';
    }
  }
  return undefined;
}
