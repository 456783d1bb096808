/**
 * `animal-store export`: the whole store as one NDJSON stream (transfer.format.ts), read in one
 * snapshot while the service goes on serving, page by page (keyset, PAGE_ROWS rows), written
 * through the output's backpressure: memory stays the same whatever the store's size.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { numberWaitingEvents } from '../events/events.sequencer.js';
import {
  camelCase,
  END_KIND,
  FORMAT_NAME,
  FORMAT_VERSION,
  HIGH_WATER_KIND,
  type Header,
  KINDS,
  type KindOfTable,
  LEFT_OUT,
  recordOf,
} from './transfer.format.js';
import { inReadSnapshot, readHighWaterMarks, tableExists } from './transfer.dialect.js';

/**
 * Rows read in one statement: enough that round trips cost little, few enough to hold at once (a
 * 1,000,000-pet export from SQLite peaked at about 210 MB of RSS with 500, about 245 MB with 2,000).
 */
const PAGE_ROWS = 500;

export interface TransferSummary {
  counts: Record<string, number>;
  bytes: number;
}

export interface ExportSummary extends TransferSummary {
  /** Events written without a position: committed as the snapshot was taken, before a sequencer numbered them (PostgreSQL). */
  unnumbered: number;
}

/** Writes the export of `db` to `out` (left open); `progress` hears the rows written so far after each page. */
export async function exportStore(
  db: Kysely<Database>,
  out: Writable,
  progress: (rows: number) => void = () => {},
  pageRows = PAGE_ROWS,
): Promise<ExportSummary> {
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  let bytes = 0;
  let rows = 0;
  let unnumbered = 0;
  const write = async (text: string) => {
    hash.update(text);
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };

  // PostgreSQL numbers committed events after their commit (events.sequencer.ts): the events
  // committed so far are numbered first, so a store at rest exports every event with its position.
  // Those committed between this and the snapshot (or all, while another sequencer holds its lock
  // too long) are written without one; the import numbers them after every other, as the
  // sequencer would have (import.ts), and the summary says how many.
  await numberWaitingEvents(db).catch(() => {});
  await inReadSnapshot(db, async (conn) => {
    const generated = KINDS.filter((kind) => kind.generatedId).map((kind) => kind.table);
    // Read first, so every row of the snapshot has an id at or below its table's mark.
    const marks = await readHighWaterMarks(conn, generated);
    // Nothing in it depends on when or from which database: the same store gives the same file.
    const header: Header = { kind: 'header', format: FORMAT_NAME, version: FORMAT_VERSION, leftOut: LEFT_OUT };
    await write(`${JSON.stringify(header)}\n`);
    await write(`${JSON.stringify({ kind: HIGH_WATER_KIND, ...marks })}\n`);
    counts[HIGH_WATER_KIND] = 1;
    for (const kind of KINDS) {
      if (kind.optional && !(await tableExists(conn, kind.table))) continue;
      // An optional table without rows is said nowhere: the file reads the same as from a store without the table.
      if (!kind.optional) counts[kind.kind] = 0;
      for await (const page of pagesOf(conn, kind, pageRows)) {
        await write(page.map((row) => `${JSON.stringify(recordOf(kind, row))}\n`).join(''));
        counts[kind.kind] = (counts[kind.kind] ?? 0) + page.length;
        if (kind.table === 'events') unnumbered += page.filter((row) => row.position === null).length;
        rows += page.length;
        progress(rows);
      }
    }
  });
  // The header's line counts too: the checksum covers every line before the end line.
  const end = `${JSON.stringify({ kind: END_KIND, counts, sha256: hash.digest('hex') })}\n`;
  bytes += Buffer.byteLength(end);
  if (!out.write(end)) await once(out, 'drain');
  return { counts, bytes, unnumbered };
}

/** The table's rows in key order, PAGE_ROWS at a time, each page starting after the last key of the one before. */
async function* pagesOf(db: Kysely<Database>, kind: KindOfTable, pageRows: number): AsyncGenerator<Record<string, unknown>[]> {
  const columns = sql.raw(Object.keys(kind.columns).join(', '));
  // Text keys in byte order on both databases (PostgreSQL's default collation sorts otherwise), so both write the same file.
  const textKey = isPostgres(db) && kind.key.some((column) => kind.columns[column]?.startsWith('text'));
  const key = sql.raw(kind.key.map((column) => (textKey ? `${column} collate "C"` : column)).join(', '));
  let after: unknown[] | undefined;
  for (;;) {
    const where = after === undefined ? sql`` : sql`where (${key}) > (${sql.join(after)})`;
    const { rows } = await sql<Record<string, unknown>>`select ${columns} from ${sql.table(kind.table)} ${where} order by ${key} limit ${pageRows}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    after = kind.key.map((column) => last[camelCase(column)]);
  }
}
