/**
 * How an operation that opts into idempotency (`config: { idempotent: true }`) is documented:
 * openapi.ts adds these to each such operation, so the document follows the route config.
 */
import { CONFIG_DEFAULTS } from '../config-defaults.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency-key.js';
import { isKeptStatus, KEPT_ERROR_STATUSES } from './idempotency.service.js';
import { errorResponse, HEADERS, header } from '../http/responses.js';
import { IN_PROGRESS_RETRY_AFTER_SECONDS } from './idempotency.hooks.js';

const IDEMPOTENCY_KEY_HEADER_DESCRIPTION = `Makes retries of this request safe (draft-ietf-httpapi-idempotency-key-header): a unique value per request, such as a UUID, as a structured-field string (\`"…"\`) or a bare token, of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters. A retry with the same key and the same request gets the first answer again with \`Idempotent-Replayed: true\` and changes nothing; see the operation's description.`;

/** The refusals named as not kept in the note (with "5xx"); a test checks none of them is kept. */
export const RELEASED_STATUSES_SHOWN = [400, 401, 403, 412, 413, 415, 429] as const;

/** "404 and 409", "404, 409 and 412": statuses as a sentence lists them. */
export function statusList(statuses: readonly number[]): string {
  return statuses.length <= 1 ? statuses.join('') : `${statuses.slice(0, -1).join(', ')} and ${statuses.at(-1)}`;
}

export const IDEMPOTENT_OPERATION_NOTE = `**Idempotent with \`Idempotency-Key\`.** Send a new unique key with each new request, and the same key when retrying it (after a timeout, a dropped connection or a 503). Within the key's lifetime (${CONFIG_DEFAULTS.IDEMPOTENCY_KEY_TTL_HOURS} hours by default), scoped to your API key: a retry of the same request (same operation, path and body) answers the first answer again (status, body, \`Location\`, \`ETag\`) with \`Idempotent-Replayed: true\`, and changes nothing; while the first still runs it answers 409 \`idempotency_key_in_use\` with \`Retry-After: ${IN_PROGRESS_RETRY_AFTER_SECONDS}\`; the same key with another request answers 422 \`idempotency_key_reused\`. Successes and the answers ${statusList(KEPT_ERROR_STATUSES)} are kept and replayed; answers that changed nothing (${RELEASED_STATUSES_SHOWN.join(', ')}, 5xx) are not, so a corrected retry with the same key runs (after a 412: read the animal again, then retry with its new ETag).`;

const REPLAYED_HEADER = {
  'Idempotent-Replayed': header('`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`, replayed; absent otherwise.'),
};

type Responses = Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, { examples?: Record<string, unknown> }> }>;

interface OperationSchema {
  description?: string;
  headers?: { properties?: Record<string, unknown>; [key: string]: unknown };
  response?: Responses;
  [key: string]: unknown;
}

/** The operation schema as documented when its route is idempotent: the header, the answers, the note. */
export function withIdempotency<T extends OperationSchema | undefined>(schema: T): T {
  if (!schema) return schema;
  const responses: Responses = {};
  for (const [status, response] of Object.entries(schema.response ?? {})) {
    responses[status] = isKeptStatus(Number(status)) ? { ...response, headers: { ...response.headers, ...REPLAYED_HEADER } } : response;
  }
  addCode(responses, 400, 'The Idempotency-Key header is malformed.', 'invalid_idempotency_key');
  addCode(responses, 409, 'A request with this Idempotency-Key is still running.', 'idempotency_key_in_use', HEADERS.retryAfter);
  addCode(responses, 422, 'This Idempotency-Key was used for another request.', 'idempotency_key_reused');
  return {
    ...schema,
    description: `${schema.description ?? ''}\n\n${IDEMPOTENT_OPERATION_NOTE}`.trimStart(),
    headers: {
      type: 'object',
      ...schema.headers,
      properties: {
        ...schema.headers?.properties,
        'Idempotency-Key': { type: 'string', minLength: 1, description: IDEMPOTENCY_KEY_HEADER_DESCRIPTION },
      },
    },
    response: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** Adds a code to the answer of its status, or makes that answer when the operation had none. */
function addCode(
  responses: Responses,
  status: number,
  description: string,
  code: ErrorCode,
  headers: Record<string, { type: 'string'; description: string }> = {},
): void {
  // These refusals come after the quota (request-pipeline.ts): they carry its fields.
  const made = errorResponse(description, [code], { ...headers, ...HEADERS.rateLimit });
  const existing = responses[status];
  if (!existing) {
    responses[status] = made;
    return;
  }
  const json = existing.content?.['application/json'];
  responses[status] = {
    ...existing,
    description: `${existing.description ?? ''} Or: ${description} (\`${code}\`, ${ERROR_CODES[code].status}).`.trimStart(),
    headers: { ...existing.headers, ...headers },
    content: { ...existing.content, 'application/json': { ...json, examples: { ...json?.examples, ...made.content['application/json'].examples } } },
  };
}
