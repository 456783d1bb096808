/**
 * Request validation. JSON bodies are checked exactly as sent: no type coercion, no defaults
 * filled in, no unknown fields silently dropped. Query strings and path parameters are text, so
 * integer fields (and each item of integer-array fields) are converted from text, but only when
 * they are plain decimal digits: Ajv's own coercion would accept `1e2`, `0x10` or an empty string.
 * A parameter declared as an array may be repeated; any other parameter given twice is refused.
 */
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { DISPLAY_TEXT_PATTERN, displayTextProblem } from '../display-text.js';
import { isDateTime } from './date-time.js';

const DECIMAL_INTEGER = /^-?\d+$/;

function createAjv(options: { useDefaults: boolean }, sharedSchemas: SchemaObject[]): Ajv {
  const ajv = new Ajv({
    // Errors carry the offending value, so messages can tell a repeated parameter from a wrong one.
    verbose: true,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: options.useDefaults,
    allErrors: true,
    strict: true,
  });
  // int64 values are bounded by minimum/maximum in each schema; the format asserts exactness too.
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  for (const schema of sharedSchemas) ajv.addSchema(schema);
  return ajv;
}

export function createValidatorCompiler(sharedSchemas: SchemaObject[]): FastifySchemaCompiler<SchemaObject> {
  const bodyAjv = createAjv({ useDefaults: false }, sharedSchemas);
  const textAjv = createAjv({ useDefaults: true }, sharedSchemas);
  const byId = new Map(sharedSchemas.map((shared) => [String(shared.$id), shared]));

  return ({ schema, httpPart }) => {
    const resolved = typeof schema.$ref === 'string' ? (byId.get(schema.$ref) ?? schema) : schema;
    if (httpPart === 'body') return refusingManyUnknownFields(resolved, bodyAjv.compile(schema));
    const validate = refusingManyUnknownFields(resolved, textAjv.compile(schema));
    const { integers, arrays } = textPropertiesOf(schema);
    const validateText = ((data: Record<string, unknown>) => {
      for (const field of integers) data[field] = integerFromText(data[field]);
      for (const { name, maxItems, integerItems } of arrays) {
        const value = data[name];
        if (value === undefined) continue;
        // Given once, the parser hands over a string; the parameter is still a list of one.
        const items = Array.isArray(value) ? value : [value];
        // Past the limit the request is refused anyway: checking every item of a huge list
        // would only cost time and lengthen the answer.
        const kept = maxItems === undefined ? items : items.slice(0, maxItems + 1);
        data[name] = integerItems ? kept.map(integerFromText) : kept;
      }
      const valid = validate(data);
      validateText.errors = validate.errors;
      return valid;
    }) as ValidateFunction;
    return validateText;
  };
}

/** At most this many problems are told one by one; the rest are counted. */
export const MAX_DETAILS = 10;
/** Longer field names are shown cut to this many characters. */
export const MAX_NAME_SHOWN = 64;

/** An Ajv-shaped entry that stands for problems not listed, so the answer can count them. */
interface MoreProblems {
  keyword: 'moreProblems';
  instancePath: '';
  schemaPath: '#';
  params: { count: number };
}

/**
 * Where extra properties are refused, counts them before Ajv runs: with more than MAX_DETAILS,
 * only the first are reported (and the rest counted), and Ajv, which would build one error for
 * each of thousands of fields, is never asked. Cost: one pass over the keys.
 */
export function refusingManyUnknownFields(schema: SchemaObject, validate: ValidateFunction): ValidateFunction {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (schema.additionalProperties !== false || !properties) return validate;
  const known = new Set(Object.keys(properties));
  const checked = ((data: unknown) => {
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const unknown: string[] = [];
      let count = 0;
      for (const key in data) {
        if (known.has(key)) continue;
        count += 1;
        if (unknown.length < MAX_DETAILS) unknown.push(key);
      }
      if (count > MAX_DETAILS) {
        const listed = unknown.map((name) => ({
          keyword: 'additionalProperties',
          instancePath: '',
          schemaPath: '#/additionalProperties',
          params: { additionalProperty: name },
        }));
        const more: MoreProblems = { keyword: 'moreProblems', instancePath: '', schemaPath: '#', params: { count: count - MAX_DETAILS } };
        checked.errors = [...listed, more];
        return false;
      }
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return checked;
}

function integerFromText(value: unknown): unknown {
  return typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value;
}

interface TextFields {
  integers: string[];
  arrays: { name: string; maxItems: number | undefined; integerItems: boolean }[];
}

function textPropertiesOf(schema: SchemaObject): TextFields {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>);
  return {
    integers: properties.filter(([, property]) => property.type === 'integer').map(([name]) => name),
    arrays: properties
      .filter(([, property]) => property.type === 'array')
      .map(([name, property]) => ({
        name,
        maxItems: typeof property.maxItems === 'number' ? property.maxItems : undefined,
        integerItems: (property.items as SchemaObject | undefined)?.type === 'integer',
      })),
  };
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * A schema pattern for text that can be stored and compared alike on every database: no NUL, no
 * unpaired surrogate (Ajv compiles patterns with the `u` flag, so a surrogate pair is one code point).
 */
export const STORABLE_TEXT_PATTERN = '^[^\\u0000\\ud800-\\udfff]*$';

/** What each pattern the schemas use asks for, in words. */
const PATTERN_MEANINGS: Record<string, string> = {
  [STORABLE_TEXT_PATTERN]: 'must not hold a NUL character or an unpaired UTF-16 surrogate',
};

interface ValidationProblem {
  field: string;
  message: string;
}

export interface ValidationSummary {
  /** At most MAX_DETAILS problems, each naming its field. */
  problems: ValidationProblem[];
  /** How many more there were. */
  more: number;
  /** The problems' messages in one line, ending with the count of the others. */
  message: string;
}

/** Turns Ajv errors into messages that name the field and say what is expected of it, a few at most. */
export function describeValidationErrors(errors: ErrorObject[], httpPart: string | undefined): ValidationSummary {
  const part = PART_NAMES[httpPart ?? 'body'] ?? 'body';
  let more = 0;
  const problems: ValidationProblem[] = [];
  // allErrors can report one field twice (for example `type` and `format`); keep the first of each.
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (error.keyword === 'moreProblems') {
      more += (error.params as MoreProblems['params']).count;
      continue;
    }
    const problem = describe(error, part);
    if (seen.has(problem.field)) continue;
    seen.add(problem.field);
    if (problems.length < MAX_DETAILS) problems.push(problem);
    else more += 1;
  }
  const listed = problems.map((p) => p.message).join('; ') || 'request is invalid';
  return { problems, more, message: more > 0 ? `${listed}; and ${more.toLocaleString('en-US')} more` : listed };
}

/** A field name as shown: cut (by code points) when a client sent an enormous one. */
function shown(name: string): string {
  if (name.length <= MAX_NAME_SHOWN) return name;
  // Twice as many UTF-16 units hold at least MAX_NAME_SHOWN code points, unless the name is shorter.
  const head = Array.from(name.slice(0, MAX_NAME_SHOWN * 2));
  if (head.length <= MAX_NAME_SHOWN && name.length <= MAX_NAME_SHOWN * 2) return name;
  return `${head.slice(0, MAX_NAME_SHOWN).join('')}…`;
}

function describe(error: ErrorObject, part: string): ValidationProblem {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => shown(segment.replace(/~1/g, '/').replace(/~0/g, '~')));
  // The n-th value of a repeated query parameter reads `query.id[1]`, not `query.id.1`.
  const field = (name: string[]) =>
    name.reduce((text, segment) => (part !== 'body' && /^\d+$/.test(segment) ? `${text}[${segment}]` : `${text}.${segment}`), part);
  const params = error.params as Record<string, unknown>;

  switch (error.keyword) {
    case 'required': {
      const name = field([...path, String(params.missingProperty)]);
      return { field: name, message: `${name} is required` };
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const name = field([...path, shown(extra)]);
      if (part === 'body' && path.length === 0 && extra === 'id') {
        return { field: name, message: `${name} must not be sent: the id is assigned by the service` };
      }
      const kind = part === 'body' ? 'field' : `${part} parameter`;
      return { field: name, message: `${name} is not a known ${kind}` };
    }
    case 'type': {
      const name = path.length === 0 ? part : field(path);
      // A query parameter given twice arrives as an array.
      if (part !== 'body' && Array.isArray(error.data)) return { field: name, message: `${name} must be given once` };
      const article = /^[aeiou]/.test(String(params.type)) ? 'an' : 'a';
      const digits = part !== 'body' && params.type === 'integer' ? ' written in decimal digits' : '';
      return { field: name, message: `${name} must be ${article} ${String(params.type)}${digits}` };
    }
    case 'enum':
      return { field: field(path), message: `${field(path)} must be one of: ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'pattern':
      // The display-text pattern is long and unreadable: say in words what is wrong with this text
      // (white space alone keeps the message it had before the rule became a pattern).
      if (params.pattern === DISPLAY_TEXT_PATTERN && typeof error.data === 'string') {
        const problem = /\S/.test(error.data) ? displayTextProblem(error.data) : 'must contain a character other than white space';
        return { field: field(path), message: `${field(path)} ${problem ?? 'is invalid'}` };
      }
      return { field: field(path), message: `${field(path)} ${PATTERN_MEANINGS[String(params.pattern)] ?? `must match ${String(params.pattern)}`}` };
    case 'minItems':
    case 'maxItems': {
      const bound = `${error.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)}`;
      const message = part === 'body' ? `must have ${bound} items` : `may be given ${bound} times`;
      return { field: field(path), message: `${field(path)} ${message}` };
    }
    case 'minimum':
    case 'maximum':
      return { field: field(path), message: `${field(path)} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}` };
    case 'format':
      return { field: field(path), message: `${field(path)} ${error.message ?? 'is invalid'}` };
    case 'minProperties': {
      const known = Object.keys((error.parentSchema?.properties ?? {}) as object);
      const among = known.length > 1 ? `: ${known.slice(0, -1).join(', ')} or ${known.at(-1)}` : '';
      return {
        field: field(path),
        message: `${field(path)} must have at least ${params.limit === 1 ? 'one field' : `${String(params.limit)} fields`}${among}`,
      };
    }
    case 'minLength':
    case 'maxLength':
      return {
        field: field(path),
        message: `${field(path)} must have ${error.keyword === 'minLength' ? 'at least' : 'at most'} ${String(params.limit)} characters`,
      };
    default:
      return { field: field(path), message: `${field(path)} ${error.message ?? 'is invalid'}` };
  }
}
