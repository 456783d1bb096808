/**
 * `animal-store import`: loads an export (transfer.format.ts) into a migrated, empty store, in one
 * transaction, line by line (memory stays the same whatever the file's size). Every row keeps its
 * id and columns; the event triggers are off meanwhile, so the import records no event and so
 * fans out no webhook. The end line's counts and checksum are compared before commit: a file cut
 * short or changed rolls everything back.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { END_KIND, FORMAT_NAME, FORMAT_VERSION, HIGH_WATER_KIND, KINDS, type KindOfTable, MUST_BE_EMPTY, valuesOf } from './transfer.format.js';
import { insertRows, raiseHighWaterMark, tableExists, withoutEventTriggers } from './transfer.dialect.js';
import type { TransferSummary } from './export.js';

/** Rows per insert statement: 500 × 14 columns stays far below SQLite's 32,766 parameters. */
const BATCH_ROWS = 500;

/** A file or a target the import will not load: the CLI says the message and exits 1. */
export class ImportRefused extends Error {}

export interface ImportSummary extends TransferSummary {
  /** Rows of a kind the target has no table for (events_legacy_positions on SQLite), read and left out. */
  skipped: Record<string, number>;
}

/** Loads the export read from `input` into `db`, or refuses it with nothing written. */
export async function importStore(db: Kysely<Database>, input: Readable, progress: (rows: number) => void = () => {}): Promise<ImportSummary> {
  let bytes = 0;
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async (): Promise<string | undefined> => {
    const { value, done } = await lines.next();
    if (done) return undefined;
    bytes += Buffer.byteLength(value) + 1;
    return value;
  };
  const first = await next();
  checkHeader(first);

  const hash = createHash('sha256').update(`${first}\n`);
  const counts: Record<string, number> = {};
  const skipped: Record<string, number> = {};
  let marks: Record<string, unknown> = {};
  let rows = 0;

  await db.transaction().execute(async (trx) => {
    if (isPostgres(trx)) {
      // Reading the file may pause the transaction (a slow pipe): the pool's limits would end it.
      await sql`set local statement_timeout = 0`.execute(trx);
      await sql`set local idle_in_transaction_session_timeout = 0`.execute(trx);
    }
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
      for (let number = 2; ; number++) {
        const line = await next();
        if (line === undefined) throw new ImportRefused('the file ends without its end line: it was cut short (nothing was imported)');
        const record = parseLine(line, number);
        if (record.kind === END_KIND) {
          await flush();
          checkEnd(record, counts, hash.digest('hex'));
          const rest = await next();
          if (rest !== undefined && rest.trim() !== '') throw new ImportRefused(`line ${number + 1} follows the end line (nothing was imported)`);
          return;
        }
        hash.update(`${line}\n`);
        counts[String(record.kind)] = (counts[String(record.kind)] ?? 0) + 1;
        if (record.kind === HIGH_WATER_KIND) {
          marks = record;
          continue;
        }
        const kind = KINDS.find((candidate) => candidate.kind === record.kind);
        if (kind === undefined)
          throw new ImportRefused(`line ${number} is of kind ${JSON.stringify(record.kind)}, which this version does not know (nothing was imported)`);
        if (!present.has(kind.kind)) {
          skipped[kind.kind] = (skipped[kind.kind] ?? 0) + 1;
          continue;
        }
        const values = valuesOf(kind, record);
        if (typeof values === 'string') throw new ImportRefused(`line ${number}: ${values} (nothing was imported)`);
        if (batch?.kind !== kind) {
          await flush();
          batch = { kind, rows: [] };
        }
        batch.rows.push(values);
        if (batch.rows.length >= BATCH_ROWS) await flush();
      }
    });

    for (const kind of KINDS.filter((candidate) => candidate.generatedId)) {
      const mark = Number(marks[kind.table] ?? 0);
      await raiseHighWaterMark(trx, kind.table, kind.table === 'events' && !isPostgres(trx) ? await sqliteEventsMark(trx, mark) : mark);
    }
  });
  return { counts, bytes, skipped };
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
  throw new ImportRefused(`line ${number} is not a record of the export (a JSON object with a kind): the file is damaged (nothing was imported)`);
}

function checkEnd(end: Record<string, unknown>, counts: Record<string, number>, sha256: string): void {
  const stated = (end.counts ?? {}) as Record<string, unknown>;
  for (const kind of new Set([...Object.keys(stated), ...Object.keys(counts)])) {
    if (Number(stated[kind] ?? 0) !== (counts[kind] ?? 0))
      throw new ImportRefused(
        `the end line counts ${JSON.stringify(stated[kind] ?? 0)} ${kind} lines, the file holds ${counts[kind] ?? 0}: the file is damaged (nothing was imported)`,
      );
  }
  if (end.sha256 !== sha256)
    throw new ImportRefused("the file's SHA-256 differs from the one its end line states: the file was changed or damaged (nothing was imported)");
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
