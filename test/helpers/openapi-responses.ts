/**
 * Checks an answer against the committed openapi.json, the way an outside client reads it: the
 * status must be one the operation documents, and a JSON body must validate against that
 * status's schema (JSON Schema 2020-12, `$ref`s resolved in the document's components).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

const DOCUMENT_ID = 'https://animal-store.invalid/openapi.json';
const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};
const prefix = new URL(document.servers[0]!.url).pathname.replace(/\/+$/, '');

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
ajv.addFormat('date-time', (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)));
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();
function validatorFor(...parts: string[]): ValidateFunction {
  const ref = `${DOCUMENT_ID}#/${pointer(...parts)}`;
  let validate = validators.get(ref);
  if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  return validate;
}

/** The documented path template (e.g. `/pets/{petId}`) of a request path under the server's prefix, if any. */
export function operationPathOf(path: string): string | undefined {
  if (!path.startsWith(`${prefix}/`)) return undefined;
  const rest = path.slice(prefix.length);
  return Object.keys(document.paths).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(rest));
}

/**
 * Asserts the answer is one openapi.json allows for `method` on `template` (a documented path),
 * or, with no template, the Error body of an unknown route. Never a 5xx.
 */
export function assertDocumentedAnswer(method: string, template: string | undefined, answer: Answer, context = ''): void {
  const where = `${method} ${template ?? '(undocumented path)'} ${context}`;
  assert.ok(answer.statusCode < 500, `${where} answered ${answer.statusCode}: ${answer.body}`);
  let validate: ValidateFunction;
  const operation = template === undefined ? undefined : document.paths[template]?.[method.toLowerCase()];
  if (!operation) {
    // Unknown routes and methods answer the one Error shape.
    validate = validatorFor('components', 'schemas', 'Error');
  } else {
    const response = operation.responses[String(answer.statusCode)];
    assert.ok(response, `${where} answered ${answer.statusCode}, which openapi.json does not document: ${answer.body}`);
    if (!response.content) {
      assert.equal(answer.body, '', `${where} answered ${answer.statusCode} with a body openapi.json does not document`);
      return;
    }
    const mediaType = Object.keys(response.content)[0]!;
    validate = validatorFor('paths', template!, method.toLowerCase(), 'responses', String(answer.statusCode), 'content', mediaType, 'schema');
  }
  assert.match(String(answer.headers['content-type']), /^application\/json/, `${where}: ${answer.statusCode} is not JSON`);
  const body = JSON.parse(answer.body) as unknown;
  assert.ok(
    validate(body),
    `${where} answered ${answer.statusCode} with a body openapi.json does not allow: ${ajv.errorsText(validate.errors)}\n${answer.body}`,
  );
}
