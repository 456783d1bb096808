/**
 * Writes (`--write`) or checks (`--check`) the committed openapi.json against what the code
 * generates with the default configuration, so the document can never drift from the service.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { generateOpenApiDocument } from '../src/openapi-document.js';

const PATH = new URL('../openapi.json', import.meta.url);
const generated = `${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes('--write')) {
  writeFileSync(PATH, generated);
  console.log('openapi.json written');
} else {
  let committed = '';
  try {
    committed = readFileSync(PATH, 'utf8');
  } catch {
    committed = '';
  }
  if (committed !== generated) {
    console.error('openapi.json differs from what the code generates: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.json is up to date');
}
