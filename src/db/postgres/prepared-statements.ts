import type { QueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Which PostgreSQL statements are prepared: every statement with parameters is prepared once per
 * connection under a name and then only bound and executed, so PostgreSQL skips parsing and
 * planning it again on every query (docs/performance.md has the figure). Each connection keeps
 * what it prepared until it closes, so the texts prepared are bounded.
 */
const namesByText = new Map<string, string>();

/** Texts are a bounded set (every value is a parameter); past this many, the rest run unprepared. */
export const MAX_PREPARED_TEXTS = 1000;

/** The name a statement's text is prepared under, the same on every connection; undefined past MAX_PREPARED_TEXTS texts. */
export function statementNameOf(text: string): string | undefined {
  let name = namesByText.get(text);
  if (name === undefined && namesByText.size < MAX_PREPARED_TEXTS) {
    name = `animal_store_${namesByText.size}`;
    namesByText.set(text, name);
  }
  return name;
}

/**
 * PostgreSQL's 0A000 (feature_not_supported) "cached plan must not change result type": a table
 * changed under a statement prepared on this connection. The driver (driver.ts, direct-read.ts) runs such
 * a statement again, prepared anew, which succeeds outside a transaction; inside one the failure
 * ended the transaction (the connection is dropped after it), and unavailable.ts counts it as
 * "unavailable" (503: the caller may retry). Told apart
 * from other 0A000 errors by the server's routine, which no locale translates, or by its English
 * message.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, routine, message } = (error ?? {}) as { code?: unknown; routine?: unknown; message?: unknown };
  return code === '0A000' && (routine === 'RevalidateCachedQuery' || (typeof message === 'string' && /cached plan must not change result type/.test(message)));
}

/**
 * PostgreSQL's 26000 (invalid_sql_statement_name): a statement prepared on this connection is no
 * longer on the server, although pg still takes it for prepared. A `DISCARD ALL` or `DEALLOCATE ALL`
 * did it: a connection pooler resetting its server connections between clients, or a proxy
 * handing this client another server connection. The driver prepares it again, as it does a stale one.
 */
function isForgottenPreparedStatement(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '26000';
}

/** The server refused a statement's prepared form (stale or forgotten): prepared anew, it runs. */
export function isRefusedPrepared(error: unknown): boolean {
  return isForgottenPreparedStatement(error) || isStalePreparedStatement(error);
}

/**
 * Runs a statement on the connection and answers Kysely's result: with parameters, under its
 * prepared name. When the server refuses the prepared form (stale or forgotten, above), outside
 * a transaction it is prepared
 * anew and run once more: pg is told to forget the name, and a stale one is deallocated first (a
 * forgotten one is already gone); inside one the refusal ended the transaction, so it is thrown.
 * `race` bounds each step by what is left of the statement's budget. `inDoubt` is called when the
 * connection must not be used again: no server answer (pg could not serialize a value) may leave
 * the name closed on the server yet prepared for pg, and a refusal inside a transaction would
 * fail every retry on that connection the same way.
 */
export async function runStatement<R>(
  client: pg.PoolClient,
  text: string,
  values: unknown[],
  options: { race: <T>(work: Promise<T>) => Promise<T>; inTransaction: boolean; inDoubt: () => void },
): Promise<QueryResult<R>> {
  const { race } = options;
  // Without parameters, the simple protocol (which runs a migration's several statements in one text).
  const name = values.length === 0 ? undefined : statementNameOf(text);
  try {
    return resultOf<R>(await race(client.query({ text, values, name })));
  } catch (error) {
    if (name === undefined) throw error;
    const refused = isRefusedPrepared(error);
    if (!(error as { code?: unknown }).code || (refused && options.inTransaction)) options.inDoubt();
    if (!refused || options.inTransaction) throw error;
    return resultOf<R>(await prepareAgain(client, { text, values, name }, error, race));
  }
}

/**
 * Runs a statement the server refused in its prepared form (outside a transaction) once more,
 * prepared anew: a stale one is deallocated first (a forgotten one is already gone), and pg is told
 * to forget the name.
 */
export async function prepareAgain<Row extends pg.QueryResultRow | unknown[]>(
  client: pg.PoolClient,
  statement: { text: string; values: unknown[]; name: string; rowMode?: 'array' },
  refusal: unknown,
  race: <T>(work: Promise<T>) => Promise<T>,
): Promise<pg.QueryResult<Row>> {
  const { name } = statement;
  if (!isForgottenPreparedStatement(refusal)) await race(client.query(`deallocate "${name}"`));
  delete (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
  return race(client.query<Row>(statement));
}

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Kysely's result from pg's: the last statement's, when the simple protocol ran several. */
function resultOf<R>(answer: pg.QueryResult | pg.QueryResult[]): QueryResult<R> {
  const last = Array.isArray(answer) ? answer.at(-1) : answer;
  if (!last) return { rows: [] };
  // Kysely's commit reads a ROLLBACK answer (the transaction had failed) from the first row.
  if (last.command === 'ROLLBACK' || last.command === 'COMMIT') return { rows: [{ command: last.command } as R] };
  return {
    numAffectedRows: COUNTED_COMMANDS.has(last.command) ? BigInt(last.rowCount ?? 0) : undefined,
    rows: last.rows as R[],
  };
}
