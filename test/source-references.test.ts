/**
 * Comments that name a file name one that exists: a module header pointing at a file that was
 * moved or never made sends the next reader nowhere (idempotency.service.ts once did).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SEARCHED = ['src', 'test', 'bench', 'scripts', 'docs', 'client/src'];

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

it('source comments > name only files that exist', () => {
  const topLevel = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(ROOT, entry.name));
  const everyFile = [...topLevel, ...SEARCHED.flatMap((folder) => filesUnder(join(ROOT, folder)))];
  const basenames = new Set(everyFile.map((file) => basename(file)));
  const missing: string[] = [];
  for (const file of filesUnder(join(ROOT, 'src')).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8');
    // Comments only: import specifiers name .js files, which the compiler checks already.
    const comments = text.match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? [];
    for (const comment of comments) {
      for (const [named] of comment.matchAll(/(?<![\w@])[\w.-]*(?:\/[\w.-]+)*\.(?:ts|md)\b/g)) {
        const found = named.includes('/')
          ? [join(dirname(file), named), join(ROOT, 'src', named), join(ROOT, named)].some((path) => existsSync(path))
          : basenames.has(named);
        if (!found) missing.push(`${relative(ROOT, file)}: ${named}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
