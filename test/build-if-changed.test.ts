/**
 * `npm start` builds only what changed (scripts/build-if-changed.js): with nothing changed since the
 * last build it starts at once; a source file changed since makes it build first. Runs the script
 * on a copy of the repository (its times kept, node_modules linked): a build in the repository's own
 * dist/ would rewrite the files that the services of the test files running beside this one start from.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { REPO_ROOT } from './helpers/spawn-service.js';

const COPY = mkdtempSync(join(tmpdir(), 'animal-store-build-'));
for (const entry of readdirSync(REPO_ROOT)) {
  if (entry === 'node_modules' || entry === '.git') continue;
  cpSync(join(REPO_ROOT, entry), join(COPY, entry), { recursive: true, preserveTimestamps: true });
}
symlinkSync(join(REPO_ROOT, 'node_modules'), join(COPY, 'node_modules'));
after(() => rmSync(COPY, { recursive: true, force: true }));

const RECORD = join(COPY, 'dist/.tsbuildinfo');
const run = () => spawnSync(process.execPath, ['scripts/build-if-changed.js'], { cwd: COPY, encoding: 'utf8' });
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
  const source = join(COPY, 'src/app.ts');
  const later = new Date(builtAt() + 2000);
  utimesSync(source, later, later);
  const built = run();
  assert.equal(built.status, 0, built.stderr);
  assert.ok(builtAt() >= later.getTime(), 'the build ran and its record moved past the change');
  const after = builtAt();
  assert.equal(run().status, 0);
  assert.equal(builtAt(), after);
});

const CONSOLE_RECORD = join(COPY, 'dist/console/static-inputs.json');
const consoleBuiltAt = () => statSync(CONSOLE_RECORD).mtimeMs;

it("build-if-changed > a console source, or a file the console's bundle was made of, touched > builds the console only, then nothing", () => {
  assert.equal(run().status, 0);
  const service = builtAt();
  for (const file of ['console/src/main.tsx', 'client/src/events.ts']) {
    // Just after the last build: still before the next one, whose record takes the time it is written.
    const later = new Date(consoleBuiltAt() + 1);
    utimesSync(join(COPY, file), later, later);
    const built = run();
    assert.equal(built.status, 0, built.stderr);
    assert.ok(consoleBuiltAt() >= later.getTime(), `${file}: the console was built again`);
    assert.equal(builtAt(), service, `${file}: the service was not`);
  }
  const after = consoleBuiltAt();
  assert.equal(run().status, 0);
  assert.equal(consoleBuiltAt(), after);
});

it('build-if-changed > a type error in src/ > fails, and fails again the next time (never a start on code that does not compile)', () => {
  assert.equal(run().status, 0);
  const broken = join(COPY, 'src/broken-on-purpose.ts');
  writeFileSync(broken, "export const broken: number = 'text';\n");
  try {
    assert.notEqual(run().status, 0);
    assert.notEqual(run().status, 0, 'the second run built again, and failed again');
  } finally {
    rmSync(broken);
  }
  assert.equal(run().status, 0);
});
