/**
 * `npm start`'s build: each part of `npm run build` runs only when its inputs changed since its last
 * build, so a restart with nothing changed starts the service at once instead of after the
 * compiler's pass (1.7 s even when incremental) and the console's bundle. A build that fails stops the start.
 *
 * - The service: src/ compiled into dist/ when a file of src/ or the build's settings is newer than
 *   dist/.tsbuildinfo, TypeScript's record of its last build.
 * - The console: console/ bundled by Vite into dist/console/static/ when a file of console/, or one
 *   the last bundle was made of (dist/console/static-inputs.json lists them: the client's source, the
 *   orders' state machine), or the settings are newer than that list.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const SETTINGS = ['package.json', 'package-lock.json'];

/** The latest change time of the files under `folder`. */
function newestIn(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** When `file` was last written; 0 when it does not exist (a file gone counts as changed: Infinity for inputs). */
function changedAt(file, missing) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return missing;
  }
}

function run(args) {
  const build = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const SERVICE_RECORD = 'dist/.tsbuildinfo';
const serviceChanged =
  Math.max(newestIn('src'), ...[...SETTINGS, 'tsconfig.json', 'tsconfig.build.json'].map((file) => changedAt(file, Infinity))) > changedAt(SERVICE_RECORD, 0);
if (serviceChanged) {
  // TypeScript writes its record even when it finds errors: without it, the next run builds (and fails) again.
  if (spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' }).status !== 0) {
    rmSync(SERVICE_RECORD, { force: true });
    process.exit(1);
  }
  // TypeScript leaves its record as it was when nothing had to be emitted (a file touched, not changed).
  const now = new Date();
  utimesSync(SERVICE_RECORD, now, now);
}

const CONSOLE_RECORD = 'dist/console/static-inputs.json';
const consoleInputs = existsSync(CONSOLE_RECORD) ? JSON.parse(readFileSync(CONSOLE_RECORD, 'utf8')) : [];
// Without console/ (a copy of dist/ alone) there is nothing to build: dist/console/static/ is served as it is.
const consoleChanged =
  existsSync('console') &&
  Math.max(newestIn('console'), ...[...SETTINGS, ...consoleInputs].map((file) => changedAt(file, Infinity))) > changedAt(CONSOLE_RECORD, 0);
if (consoleChanged) run(['node_modules/vite/bin/vite.js', 'build', '--config', 'console/vite.config.ts']);
