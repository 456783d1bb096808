/**
 * What `animal-store pets import FILE` tells its operator: every bad line, a progress bar on a
 * terminal, one summary line at the end. Answers the exit status (0 added, 1 nothing added).
 */
import { statSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { importFormatOf } from './pets.import-format.js';
import { ImportFileError, importPetsFile, MAX_PROBLEMS_SHOWN, PetsNotAdded } from './pets.import.js';

/** The progress bar is redrawn at most this often. */
const PROGRESS_EVERY_MS = 100;
const BAR_WIDTH = 30;

interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

export async function runPetsImport(db: Kysely<Database>, file: string, stderr: Output): Promise<number> {
  const started = performance.now();
  const format = importFormatOf(file)!;
  const size = statSync(file).size;
  const progress = progressBar(stderr);
  let imported;
  try {
    imported = await importPetsFile(db, file, format, {
      onBytes: (bytes) => progress.show('importing', bytes / Math.max(size, 1)),
    });
  } catch (error) {
    progress.clear();
    if (error instanceof ImportFileError) {
      stderr.write(`${error.message}\nNothing was added.\n`);
      return 1;
    }
    if (!(error instanceof PetsNotAdded)) throw error;
    // The pets are added in one transaction: a failure before its commit leaves none of them.
    stderr.write(
      `The database failed while adding the pets (${error.message}); it rolled back: nothing was added. Check the database, then run the import again.\n`,
    );
    return 1;
  }
  progress.clear();
  if (imported.badLines > 0) {
    for (const problem of imported.problems) stderr.write(`line ${problem.line}: ${problem.field}: ${problem.message}\n`);
    const untold = imported.badLines - Math.min(imported.badLines, MAX_PROBLEMS_SHOWN);
    if (untold > 0) stderr.write(`… and ${untold.toLocaleString('en-US')} more bad lines\n`);
    stderr.write(`${imported.badLines.toLocaleString('en-US')} bad line${imported.badLines === 1 ? '' : 's'} in ${file}; nothing was added.\n`);
    return 1;
  }
  const { added } = imported;
  progress.clear();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  stderr.write(`Added ${added.toLocaleString('en-US')} pet${added === 1 ? '' : 's'} from ${file} in ${seconds} s.\n`);
  return 0;
}

/** A one-line bar redrawn in place, only on a terminal and at most every PROGRESS_EVERY_MS. */
function progressBar(stderr: Output) {
  let shownAt = 0;
  let drawn = false;
  return {
    show(stage: string, fraction: number) {
      if (!stderr.isTTY) return;
      const now = performance.now();
      if (now - shownAt < PROGRESS_EVERY_MS) return;
      shownAt = now;
      const done = Math.round(Math.min(fraction, 1) * BAR_WIDTH);
      stderr.write(`\r${stage} [${'#'.repeat(done)}${' '.repeat(BAR_WIDTH - done)}] ${Math.floor(Math.min(fraction, 1) * 100)}%`);
      drawn = true;
    },
    clear() {
      if (drawn) stderr.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
