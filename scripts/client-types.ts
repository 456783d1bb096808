/**
 * Writes (`--write`) or checks (`--check`) the client's generated types (client/src/openapi.ts)
 * against the committed openapi.json, so the typed client can never drift from the contract.
 * Run after `npm run openapi` (which calls it), and in `npm run openapi:check`.
 */
import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { writeOrCheckGenerated } from './generated-file.js';

const SPEC = new URL('../openapi.json', import.meta.url);
const HEADER = '// Generated from openapi.json by `npm run openapi` (scripts/client-types.ts): do not edit.\n';

// A field with a default (a pet's status) may be omitted in a request: it must stay optional in the types.
const ast = await openapiTS(JSON.parse(readFileSync(SPEC, 'utf8')) as Parameters<typeof openapiTS>[0], { defaultNonNullable: false });
writeOrCheckGenerated(new URL('../client/src/openapi.ts', import.meta.url), `${HEADER}${astToString(ast)}`, 'client/src/openapi.ts', 'openapi.json');
