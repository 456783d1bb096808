/**
 * `animal-store import`: loads an export (transfer.format.ts) into a migrated, empty store, in one
 * transaction, line by line (memory stays the same whatever the file's size). Every row keeps its
 * id and columns; the event triggers are off meanwhile, so the import records no event and so
 * fans out no webhook. The end line's counts and checksum are compared before commit: a file cut
 * short or changed rolls everything back.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { errorCodeOf } from '../db/error-code.js';
import { boundedLines, type Line, LineRefused } from '../bounded-lines.js';
import {
  camelCase,
  END_KIND,
  FORMAT_NAME,
  FORMAT_VERSION,
  HIGH_WATER_KIND,
  integerProblem,
  KINDS,
  type KindOfTable,
  MUST_BE_EMPTY,
  valuesOf,
} from './transfer.format.js';
import {
  claimStore,
  insertRows,
  LOCK_NOT_AVAILABLE,
  LOCK_WAIT_SECONDS,
  lockTables,
  numberImportedEvents,
  raiseHighWaterMark,
  tableExists,
  withoutEventTriggers,
} from './transfer.dialect.js';
import type { TransferSummary } from './export.js';

/** Rows per insert statement: 500 × 14 columns stays far below SQLite's 32,766 parameters. */
const BATCH_ROWS = 500;

/**
 * The longest line read: no row a store holds comes near it (the largest, a webhook delivery's
 * payload, is a few KB), and it bounds the memory one line takes, a line of garbage included.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

const NOTHING = '(nothing was imported)';

/** A file or a target the import will not load: the CLI says the message and exits 1. */
export class ImportRefused extends Error {}

/** A service has the target open: an import beneath it would leave it serving with what it read before (its cursor key, its caches). */
export const STORE_IN_USE = `another process is using the target (a running service?): stop every service of the target, then import again ${NOTHING}`;

export interface ImportSummary extends TransferSummary {
  /** Rows of a kind the target has no table for (events_legacy_positions on SQLite), read and left out. */
  skipped: Record<string, number>;
}

/** Loads the export read from `input` into `db`, or refuses it with nothing written. */
export async function importStore(db: Kysely<Database>, input: Readable, progress: (rows: number) => void = () => {}): Promise<ImportSummary> {
  let bytes = 0;
  const lines = boundedLines(input, MAX_LINE_BYTES);
  const next = async (): Promise<Line | undefined> => {
    try {
      const { value, done } = await lines.next();
      if (done) return undefined;
      bytes += value.bytes;
      return value;
    } catch (error) {
      if (error instanceof LineRefused) throw new ImportRefused(`${error.message}: the file is no animal-store export, or it is damaged ${NOTHING}`);
      throw error;
    }
  };
  const first = await next();
  checkHeader(first?.text);

  const hash = createHash('sha256').update(`${first!.text}\n`);
  const counts: Record<string, number> = {};
  const skipped: Record<string, number> = {};
  const order = new FileOrder();
  let marks: Record<string, number> = {};
  let rows = 0;
  /** The lines of the batch being written, for a refusal that names them. */
  let batchLines: [number, number] = [0, 0];
  let committing = false;

  try {
    await db.transaction().execute(async (trx) => {
      if (isPostgres(trx)) {
        // Reading the file may pause the transaction (a slow pipe): the pool's limits would end it.
        await sql`set local statement_timeout = 0`.execute(trx);
        await sql`set local idle_in_transaction_session_timeout = 0`.execute(trx);
      }
      if (!(await claimStore(trx))) throw new ImportRefused(STORE_IN_USE);
      await lockTables(trx, [...new Set([...MUST_BE_EMPTY.map(({ table }) => table), ...KINDS.filter((kind) => !kind.optional).map((kind) => kind.table)])]);
      await refuseNonEmpty(trx);
      const present = new Set<string>();
      for (const kind of KINDS) if (!kind.optional || (await tableExists(trx, kind.table))) present.add(kind.kind);

      await withoutEventTriggers(trx, async () => {
        let batch: { kind: KindOfTable; rows: unknown[][] } | undefined;
        const flush = async () => {
          if (!batch || batch.rows.length === 0) return;
          const { kind } = batch;
          await insertRows(trx, kind.table, Object.keys(kind.columns), batch.rows, kind.generatedId ? undefined : kind.key);
          rows += batch.rows.length;
          batch.rows = [];
          progress(rows);
        };
        for (;;) {
          const line = await next();
          if (line === undefined) throw new ImportRefused(`the file ends without its end line: it was cut short ${NOTHING}`);
          const { number } = line;
          const record = parseLine(line.text, number);
          if (record.kind === END_KIND) {
            await flush();
            checkEnd(record, counts, hash.digest('hex'));
            const rest = await next();
            if (rest !== undefined && rest.text.trim() !== '') throw new ImportRefused(`line ${rest.number} follows the end line ${NOTHING}`);
            return;
          }
          hash.update(`${line.text}\n`);
          if (record.kind === HIGH_WATER_KIND) {
            if (number !== 2) throw new ImportRefused(`line ${number}: the high_water line comes only once, second in the file ${NOTHING}`);
            marks = highWaterMarks(record, number);
            counts[HIGH_WATER_KIND] = 1;
            continue;
          }
          if (number === 2) throw new ImportRefused(`line 2 is not the high_water line, which follows the header: the file is damaged ${NOTHING}`);
          const kind = KINDS.find((candidate) => candidate.kind === record.kind);
          if (kind === undefined)
            throw new ImportRefused(`line ${number} is of kind ${JSON.stringify(record.kind)}, which this version does not know ${NOTHING}`);
          const values = valuesOf(kind, record);
          if (typeof values === 'string') throw new ImportRefused(`line ${number}: ${values} ${NOTHING}`);
          const disorder = order.follow(kind, record);
          if (disorder !== undefined) throw new ImportRefused(`line ${number}: ${disorder}: the file was changed or made by hand ${NOTHING}`);
          counts[kind.kind] = (counts[kind.kind] ?? 0) + 1;
          if (!present.has(kind.kind)) {
            skipped[kind.kind] = (skipped[kind.kind] ?? 0) + 1;
            continue;
          }
          if (batch?.kind !== kind) {
            await flush();
            batch = { kind, rows: [] };
          }
          if (batch.rows.length === 0) batchLines = [number, number];
          batchLines[1] = number;
          batch.rows.push(values);
          if (batch.rows.length >= BATCH_ROWS) await flush();
        }
      });

      batchLines = [0, 0];
      if (!isPostgres(trx)) await numberImportedEvents(trx);
      for (const kind of KINDS.filter((candidate) => candidate.generatedId)) {
        const mark = marks[kind.table] ?? 0;
        await raiseHighWaterMark(trx, kind.table, kind.table === 'events' && !isPostgres(trx) ? await sqliteEventsMark(trx, mark) : mark);
      }
      committing = true;
    });
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw refusalOfDatabaseError(error, batchLines, committing);
  }
  // PostgreSQL numbers events once they are committed: now, rather than when a service next starts.
  if (isPostgres(db)) await numberImportedEvents(db);
  return { counts, bytes, skipped };
}

/**
 * What a database error during the import means to the operator. A constraint the rows break
 * (a repeated key, two events at one position) is the file's fault; anything else (the connection
 * lost, the store locked) is the database's, and the import may be run again. Either way the
 * transaction rolled back, unless the error came with the commit itself.
 */
function refusalOfDatabaseError(error: unknown, [from, to]: [number, number], committing: boolean): ImportRefused {
  const code = errorCodeOf(error) ?? '';
  const said = (error as Error).message;
  if (code.startsWith('SQLITE_CONSTRAINT') || /^23...$/.test(code)) {
    const where = from === 0 ? 'the file' : from === to ? `line ${from}` : `lines ${from}–${to}`;
    return new ImportRefused(
      `${where}: the database refuses the records (${said}): no store holds them together (a repeated id, two events at one position, a value out of its range); the file was changed or made by hand ${NOTHING}`,
    );
  }
  if (code === LOCK_NOT_AVAILABLE)
    return new ImportRefused(
      `another session kept the target's tables for over ${LOCK_WAIT_SECONDS} s (a running service in a long transaction?): stop what uses the target, then import again ${NOTHING}`,
    );
  if (code.startsWith('SQLITE_BUSY'))
    return new ImportRefused(`the store is locked by another process (a running service, a backup?): stop it, then import again ${NOTHING}`);
  if (committing)
    return new ImportRefused(
      `the database failed while committing the import (${said}): the target is either empty or holds the whole import; check it (animal-store export shows what it holds), and if it is empty, import again`,
    );
  return new ImportRefused(`the database failed during the import (${said}); everything was rolled back ${NOTHING}: check the database, then import again`);
}

/** The high_water line's marks: one for each table with generated ids, each an integer. */
function highWaterMarks(record: Record<string, unknown>, number: number): Record<string, number> {
  const tables = KINDS.filter((kind) => kind.generatedId).map((kind) => kind.table);
  const marks: Record<string, number> = {};
  for (const [field, value] of Object.entries(record)) {
    if (field === 'kind') continue;
    if (!tables.includes(field))
      throw new ImportRefused(`line ${number}: the high_water line names ${JSON.stringify(field)}, which is no table of a store ${NOTHING}`);
    const problem = integerProblem(value, 0);
    if (problem !== undefined) throw new ImportRefused(`line ${number}: the high_water mark of ${field} ${problem} ${NOTHING}`);
    marks[field] = value as number;
  }
  const missing = tables.filter((table) => !(table in marks));
  if (missing.length > 0) throw new ImportRefused(`line ${number}: the high_water line has no mark for ${missing.join(', ')} ${NOTHING}`);
  return marks;
}

/**
 * The order an export writes: kinds in KINDS order, each kind's lines in ascending key. An import
 * holds it to that order, which finds a repeated record (a duplicate id) or one moved elsewhere
 * (an order before its pet) at its line, with nothing to remember but the last key.
 */
class FileOrder {
  private kindIndex = -1;
  private lastKey: unknown[] | undefined;

  /** Why `record` cannot come next, or undefined. */
  follow(kind: KindOfTable, record: Record<string, unknown>): string | undefined {
    const index = KINDS.indexOf(kind);
    if (index < this.kindIndex)
      return `a line of kind ${kind.kind} after the ${KINDS[this.kindIndex]!.kind} lines (an export writes every ${kind.kind} line before them)`;
    const key = kind.key.map((column) => record[camelCase(column)]);
    if (index === this.kindIndex && compareKeys(key, this.lastKey!) <= 0)
      return `the ${kind.kind} ${describeKey(kind, key)} is not above the one before it (${describeKey(kind, this.lastKey!)}): a repeated or misplaced record`;
    this.kindIndex = index;
    this.lastKey = key;
    return undefined;
  }
}

function describeKey(kind: KindOfTable, key: unknown[]): string {
  return kind.key.map((column, i) => `${camelCase(column)} ${JSON.stringify(key[i])}`).join(', ');
}

/** Integers by value, texts by their UTF-8 bytes (the order both databases export in). */
function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

function checkHeader(line: string | undefined): void {
  if (line === undefined) throw new ImportRefused('the file is empty: it is no animal-store export');
  let header: { format?: unknown; version?: unknown };
  try {
    header = JSON.parse(line) as typeof header;
  } catch {
    throw new ImportRefused('the first line is not JSON: the file is no animal-store export');
  }
  if (header?.format !== FORMAT_NAME) throw new ImportRefused(`the first line does not name the format ${FORMAT_NAME}: the file is no animal-store export`);
  if (!Number.isSafeInteger(header.version) || (header.version as number) < 1)
    throw new ImportRefused(`the file's format version ${JSON.stringify(header.version)} is no version of ${FORMAT_NAME}`);
  if ((header.version as number) > FORMAT_VERSION)
    throw new ImportRefused(
      `the file is of format version ${String(header.version)}, newer than this animal-store reads (${FORMAT_VERSION}): import it with the release that exported it or a later one`,
    );
}

function parseLine(line: string, number: number): Record<string, unknown> {
  try {
    const record = JSON.parse(line) as unknown;
    if (record !== null && typeof record === 'object' && !Array.isArray(record) && typeof (record as { kind?: unknown }).kind === 'string')
      return record as Record<string, unknown>;
  } catch {
    // Said below, with the line's number.
  }
  throw new ImportRefused(`line ${number} is not a record of the export (a JSON object with a kind): the file is damaged ${NOTHING}`);
}

function checkEnd(end: Record<string, unknown>, counts: Record<string, number>, sha256: string): void {
  const stated = end.counts;
  const stray = Object.keys(end).find((field) => !['kind', 'counts', 'sha256'].includes(field));
  if (stray !== undefined || stated === null || typeof stated !== 'object' || Array.isArray(stated))
    throw new ImportRefused(`the end line is not {"kind":"end","counts":{…},"sha256":"…"}: the file is damaged ${NOTHING}`);
  const known = [HIGH_WATER_KIND, ...KINDS.map((kind) => kind.kind)];
  for (const [kind, n] of Object.entries(stated)) {
    if (!known.includes(kind))
      throw new ImportRefused(`the end line counts lines of kind ${JSON.stringify(kind)}, which this version does not know ${NOTHING}`);
    if (!Number.isSafeInteger(n)) throw new ImportRefused(`the end line's count of ${kind} lines is not an integer: the file is damaged ${NOTHING}`);
  }
  for (const kind of known) {
    const given = Object.hasOwn(stated, kind) ? (stated as Record<string, number>)[kind]! : 0;
    if (given !== (counts[kind] ?? 0))
      throw new ImportRefused(`the end line counts ${given} ${kind} lines, the file holds ${counts[kind] ?? 0}: the file is damaged ${NOTHING}`);
  }
  if (end.sha256 !== sha256) throw new ImportRefused(`the file's SHA-256 differs from the one its end line states: the file was changed or damaged ${NOTHING}`);
}

/** The target may hold nothing a store is made of; a refusal names what it found. */
async function refuseNonEmpty(db: Kysely<Database>): Promise<void> {
  const found: string[] = [];
  for (const { table, one, many } of MUST_BE_EMPTY) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found.push(`${n} ${n === 1 ? one : many}`);
  }
  if (found.length === 0) return;
  const listed = found.length === 1 ? found[0]! : `${found.slice(0, -1).join(', ')} and ${found[found.length - 1]!}`;
  throw new ImportRefused(`the target holds ${listed}: import loads only into an empty store (migrate a new database and import there)`);
}

/**
 * SQLite gives a new event the position of its id (a trigger): ids must start above every position
 * imported or purged, which on a store exported from PostgreSQL may be above its events' ids.
 */
async function sqliteEventsMark(db: Kysely<Database>, mark: number): Promise<number> {
  const { rows } = await sql<{ top: number | null; purged: number | null }>`select
    (select max(position) from events) as top, (select purged_position from events_retention where singleton = 1) as purged`.execute(db);
  return Math.max(mark, Number(rows[0]?.top ?? 0), Number(rows[0]?.purged ?? 0));
}
