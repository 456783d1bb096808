/**
 * Writes (`--write`) or checks (`--check`) the committed openapi.json against what the code
 * generates with the default configuration, so the document can never drift from the service.
 */
import { generateOpenApiDocument } from '../src/openapi-document.js';
import { writeOrCheckGenerated } from './generated-file.js';

const generated = `${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`;
writeOrCheckGenerated(new URL('../openapi.json', import.meta.url), generated, 'openapi.json', 'the code');
