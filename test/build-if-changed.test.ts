/**
 * `npm start` builds only what changed (scripts/build-if-changed.js): with nothing changed since the
 * last build it starts at once; a source file changed since makes it build first. Runs the script
 * on the repository's own dist/, as npm start does.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from './helpers/spawn-service.js';

const RECORD = join(REPO_ROOT, 'dist/.tsbuildinfo');
const run = () => spawnSync(process.execPath, ['scripts/build-if-changed.js'], { cwd: REPO_ROOT, encoding: 'utf8' });
const builtAt = () => statSync(RECORD).mtimeMs;

it('build-if-changed > with nothing changed since the last build > builds nothing', () => {
  assert.equal(run().status, 0);
  const before = builtAt();
  const again = run();
  assert.equal(again.status, 0, again.stderr);
  assert.equal(builtAt(), before);
});

it('build-if-changed > a source file touched after the last build > builds, and then not again', () => {
  assert.equal(run().status, 0);
  const source = join(REPO_ROOT, 'src/app.ts');
  const later = new Date(builtAt() + 2000);
  utimesSync(source, later, later);
  const built = run();
  assert.equal(built.status, 0, built.stderr);
  assert.ok(builtAt() >= later.getTime(), 'the build ran and its record moved past the change');
  const after = builtAt();
  assert.equal(run().status, 0);
  assert.equal(builtAt(), after);
});

const CONSOLE_RECORD = join(REPO_ROOT, 'dist/console/static-inputs.json');
const consoleBuiltAt = () => statSync(CONSOLE_RECORD).mtimeMs;

it("build-if-changed > a console source, or a file the console's bundle was made of, touched > builds the console only, then nothing", () => {
  assert.equal(run().status, 0);
  const service = builtAt();
  for (const file of ['console/src/main.tsx', 'client/src/events.ts']) {
    // Just after the last build: still before the next one, whose record takes the time it is written.
    const later = new Date(consoleBuiltAt() + 1);
    utimesSync(join(REPO_ROOT, file), later, later);
    const built = run();
    assert.equal(built.status, 0, built.stderr);
    assert.ok(consoleBuiltAt() >= later.getTime(), `${file}: the console was built again`);
    assert.equal(builtAt(), service, `${file}: the service was not`);
  }
  const after = consoleBuiltAt();
  assert.equal(run().status, 0);
  assert.equal(consoleBuiltAt(), after);
});
