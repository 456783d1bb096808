/**
 * The one way a generated, committed file is kept true: `--write` writes what the code generates,
 * anything else checks that the committed file is exactly that, and fails (exit 1) when it drifted.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheckGenerated(path: URL, generated: string, name: string, source: string): void {
  if (process.argv.includes('--write')) {
    writeFileSync(path, generated);
    console.log(`${name} written`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(path, 'utf8');
  } catch {
    committed = '';
  }
  if (committed !== generated) {
    console.error(`${name} differs from what ${source} generates: run \`npm run openapi\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${name} is up to date`);
}
