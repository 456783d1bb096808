/**
 * The `export` and `import` commands' dealings with files and the terminal: where the stream goes
 * or comes from, the owner-only output file, the progress line and the summary on stderr.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { withDb } from '../db/create-db.js';
import { migrateStore } from '../db/migrate.js';
import { exportStore } from './export.js';
import { ImportRefused, importStore, STORE_IN_USE } from './import.js';
import { StoreInUse } from '../db/sqlite/exclusive-open.js';

/** Said on stderr by every export, before any row. */
const SECRET_WARNING = 'The export holds webhook signing secrets and the cursor key (API keys only as hashes): keep the file as you keep the database.';

interface Target {
  databaseUrl: string;
  databaseStatementTimeoutMs: number;
}

/**
 * Every read and write of a transfer runs without the service's per-statement limits (pages are
 * short; the commit of millions of rows is not). `alone`: no service may have the store open
 * (SQLite: checked here, at the opening; PostgreSQL: in the import's transaction).
 */
async function onStore<T>(config: Target, work: Parameters<typeof withDb<T>>[2], alone = false): Promise<T> {
  await migrateStore(config.databaseUrl, config.databaseStatementTimeoutMs);
  return withDb(config.databaseUrl, config.databaseStatementTimeoutMs, work, { unlimitedStatements: true, sqliteExclusive: alone });
}

export async function exportCommand(config: Target, options: { output?: string; force?: boolean }): Promise<void> {
  const started = performance.now();
  const { output } = options;
  if (output !== undefined && output !== '-' && existsSync(output) && !options.force)
    throw new Error(`${output} exists already: choose another file, or add --force to replace it`);
  process.stderr.write(`${SECRET_WARNING}\n`);
  // A file is written beside its place, owner-only from its creation, and renamed at the end: no
  // half export ever has the name of a whole one.
  const temporary = output !== undefined && output !== '-' ? `${output}.${process.pid}.partial` : undefined;
  const out: Writable = temporary ? createWriteStream(temporary, { flags: 'wx', mode: 0o600 }) : process.stdout;
  try {
    if (temporary) await once(out, 'open');
    const summary = await onStore(config, (db) => exportStore(db, out, progressLine('exported')));
    if (temporary) {
      out.end();
      await finished(out);
      renameSync(temporary, output!);
    }
    endProgress();
    process.stderr.write(
      `Exported ${describeCounts(summary.counts)}: ${summary.bytes} bytes in ${seconds(started)} s${output && output !== '-' ? ` to ${output} (mode 0600)` : ''}.${
        summary.unnumbered > 0
          ? ` ${summary.unnumbered} event(s) committed as the export began had no feed position yet: they are in the file without one, and the import numbers them after all the others.`
          : ''
      }\n`,
    );
  } catch (error) {
    endProgress();
    if (temporary) {
      out.destroy();
      rmSync(temporary, { force: true });
    }
    throw error;
  }
}

export async function importCommand(config: Target, file: string): Promise<void> {
  const started = performance.now();
  const input: Readable = file === '-' ? process.stdin : createReadStream(file);
  if (file !== '-') {
    // A missing or unreadable file is said before the database is touched.
    await once(input, 'open').catch((error: unknown) => {
      throw new ImportRefused(`cannot read ${file}: ${(error as Error).message}`);
    });
  }
  try {
    const summary = await onStore(config, (db) => importStore(db, input, progressLine('imported')), true).catch((error: unknown) => {
      throw error instanceof StoreInUse ? new ImportRefused(STORE_IN_USE) : error;
    });
    endProgress();
    const skipped = Object.entries(summary.skipped).map(([kind, n]) => `${n} ${kind} lines (no such table on this database)`);
    process.stderr.write(
      `Imported ${describeCounts(summary.counts)}: ${summary.bytes} bytes in ${seconds(started)} s.${skipped.length ? ` Left out: ${skipped.join(', ')}.` : ''}\n`,
    );
  } catch (error) {
    endProgress();
    input.destroy();
    throw error;
  }
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([kind]) => kind !== 'high_water')
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
}

function seconds(started: number): string {
  return ((performance.now() - started) / 1000).toFixed(1);
}

let progressShown = false;

/** On a terminal only: one line, rewritten at most twice a second. */
function progressLine(verb: string): (rows: number) => void {
  if (!process.stderr.isTTY) return () => {};
  let last = 0;
  return (rows) => {
    const now = performance.now();
    if (now - last < 500) return;
    last = now;
    progressShown = true;
    process.stderr.write(`\r${verb} ${rows} rows…`);
  };
}

function endProgress(): void {
  if (progressShown) process.stderr.write('\n');
  progressShown = false;
}
