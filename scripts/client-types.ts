/**
 * Writes (`--write`) or checks (`--check`) the client's generated types (src/client/openapi.ts)
 * against the committed openapi.json, so the typed client can never drift from the contract.
 * Run after `npm run openapi` (which calls it), and in `npm run openapi:check`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

const SPEC = new URL('../openapi.json', import.meta.url);
const PATH = new URL('../src/client/openapi.ts', import.meta.url);
const HEADER = '// Generated from openapi.json by `npm run openapi` (scripts/client-types.ts): do not edit.\n';

// A field with a default (a pet's status) may be omitted in a request: it must stay optional in the types.
const ast = await openapiTS(JSON.parse(readFileSync(SPEC, 'utf8')) as Parameters<typeof openapiTS>[0], { defaultNonNullable: false });
const generated = `${HEADER}${astToString(ast)}`;

if (process.argv.includes('--write')) {
  writeFileSync(PATH, generated);
  console.log('src/client/openapi.ts written');
} else {
  let committed = '';
  try {
    committed = readFileSync(PATH, 'utf8');
  } catch {
    committed = '';
  }
  if (committed !== generated) {
    console.error('src/client/openapi.ts differs from what openapi.json generates: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('src/client/openapi.ts is up to date');
}
