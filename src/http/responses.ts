/**
 * How responses are documented: the one Error shape, error entries with examples, and the
 * headers answers carry. Routes compose these so every documented answer says what it sends.
 */
import { Type } from '@sinclair/typebox';
import { CONFIG_DEFAULTS } from '../config-defaults.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { CURSOR_EXPIRED_MESSAGE } from '../events/events.cursor.js';
import { GET_PET_REMOVED_MESSAGE } from '../pets/get-pet-deprecation.js';
import { MAX_DETAILS, MAX_NAME_SHOWN } from './validation.js';
import { WEBHOOK_ENDPOINTS_MAX } from '../webhooks/webhook-endpoints.limits.js';

export const ErrorSchema = Type.Object(
  {
    code: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: `Machine-readable, stable error code. The closed list:\n\n${Object.entries(ERROR_CODES)
        .map(([code, { status, description }]) => `- \`${code}\` (${status}): ${description}`)
        .join('\n')}`,
    }),
    message: Type.String({ description: 'Human-readable description; it names the offending field when there is one. Wording may change.' }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status code of the response.' }),
    details: Type.Optional(
      Type.Array(
        Type.Object(
          {
            field: Type.String({ description: 'Where the problem is, such as `body.categoryId` or `query.limit`.' }),
            message: Type.String(),
          },
          { additionalProperties: false },
        ),
        {
          description: `The problems found (validation errors): at most ${MAX_DETAILS}, each naming its field (names longer than ${MAX_NAME_SHOWN} characters are cut, ending in \`…\`). When there are more, \`message\` ends with \`; and N more\`.`,
        },
      ),
    ),
  },
  {
    $id: 'Error',
    additionalProperties: false,
    examples: [{ code: 'validation_failed', message: 'body.categoryId must be an integer', status: 400 }],
  },
);

const EXAMPLES: Record<ErrorCode, string> = {
  validation_failed: 'body.categoryId must be an integer',
  malformed_json: 'body is not valid JSON: Unexpected end of JSON input',
  invalid_cursor: 'cursor is not a cursor this service made; use the Link header of the previous page',
  bad_request: 'the URL is not valid: /v1/pets/%E0%A4%A',
  request_timeout: 'the request was not received completely in time',
  headers_too_large: 'the request headers are too large',
  invalid_idempotency_key: 'Idempotency-Key must have at most 255 characters (got 300)',
  idempotency_key_in_use: 'a request with this Idempotency-Key is still running; retry after 1 s for its answer',
  idempotency_key_reused: 'this Idempotency-Key was used for another request (POST /v1/pets with another body); use a new key for a new request',
  unauthorized: 'a valid API key is required: send Authorization: Bearer <API_KEY>',
  insufficient_scope: 'this key lacks the scope pets:write that POST /v1/pets needs; its scopes: pets:read',
  pet_not_found: 'no pet has id 42',
  order_not_found: 'no order has id 7',
  webhook_endpoint_not_found: 'no webhook endpoint has id 1',
  webhook_endpoint_limit: `the store has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints, the most it may have; remove one first`,
  webhook_delivery_not_found: 'webhook endpoint 1 has no delivery 12',
  webhook_endpoint_disabled: 'webhook endpoint 1 is disabled: nothing is sent to it; enable it first (PATCH status enabled)',
  webhook_delivery_in_flight: 'an attempt of delivery 12 is being sent now; retry after it ends',
  webhook_secret_superseded:
    'the first answer to this Idempotency-Key carried a signing secret that webhook endpoint 1 no longer has (rotated since, or the endpoint removed); it is not answered again',
  api_key_not_found: 'no API key has id 7',
  api_key_already_issued:
    'the first request with this Idempotency-Key made API key 7 (ask_Jx1Qm0Vb…), shown in that answer only; it is not shown again: use it, or revoke it and make another',
  route_not_found: 'no operation at GET /v1/animals',
  method_not_allowed: 'DELETE is not allowed on /v1/pets; allowed: GET, HEAD, POST',
  cursor_expired: CURSOR_EXPIRED_MESSAGE,
  operation_removed: GET_PET_REMOVED_MESSAGE,
  pet_not_available: 'pet 42 is pending; only an available pet can be ordered',
  order_state_conflict: 'order 7 is delivered; cancel applies only to a placed or approved order',
  pet_has_open_order: 'pet 42 has an open order 7 (placed): its status follows the order; deliver or cancel the order first',
  pet_sold_by_order: 'pet 42 was sold by order 7 (delivered): its status stays sold',
  precondition_failed: 'pet 42 has changed since the ETag in If-Match was read; read it again for its current ETag and retry',
  expectation_failed: 'the only expectation this service meets is Expect: 100-continue',
  payload_too_large: 'body is larger than 65536 bytes',
  unsupported_media_type: 'body must be application/json, not text/plain',
  rate_limited: `more than ${CONFIG_DEFAULTS.RATE_LIMIT_PER_MINUTE} requests in one minute with this key; retry after 17 s`,
  too_many_streams: `this key already holds ${CONFIG_DEFAULTS.EVENT_STREAMS_PER_KEY} streams of the events feed on this instance (EVENT_STREAMS_PER_KEY); close one or retry after 5 s`,
  internal_error: 'internal error; quote the X-Request-Id header when reporting it',
  service_unavailable: 'the database is not reachable; retry later',
};

type HeaderDocs = Record<string, { type: 'string'; description: string }>;

export const header = (description: string) => ({ type: 'string' as const, description });

/** Headers by the situation that brings them. */
export const HEADERS = {
  requestId: { 'X-Request-Id': header('The request id: the one the client sent when it was sane, else a new UUID. Also in the log line.') },
  rateLimit: {
    'RateLimit-Policy': header(
      `The quota, as draft-ietf-httpapi-ratelimit-headers-11 writes it: \`"per-key";q=${CONFIG_DEFAULTS.RATE_LIMIT_PER_MINUTE};w=60\` (q requests per w seconds with this key). Absent when rate limits are off.`,
    ),
    RateLimit: header(
      'What is left of the quota: `"per-key";r=1187;t=42` (r requests left, t seconds until the window ends). Absent when rate limits are off.',
    ),
  },
  retryAfter: { 'Retry-After': header('Seconds to wait before retrying.') },
  challenge: {
    'WWW-Authenticate': header('`Bearer realm="animal-store"`, with `error="invalid_token"` or `error="invalid_request"` when a key was sent (RFC 6750).'),
  },
  scopeChallenge: {
    'WWW-Authenticate': header('`Bearer realm="animal-store", error="insufficient_scope", scope="<the scope needed>"` (RFC 6750 §3.1).'),
  },
} satisfies Record<string, HeaderDocs>;

/** An OpenAPI response entry for a status, listing the codes it can carry, with an example of each. */
export function errorResponse(description: string, codes: ErrorCode[], headers: HeaderDocs = {}, messages: Partial<Record<ErrorCode, string>> = {}) {
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: { ...HEADERS.requestId, ...headers },
    content: {
      'application/json': {
        schema: Type.Ref(ErrorSchema),
        examples: Object.fromEntries(
          codes.map((code) => [code, { value: { code, message: messages[code] ?? EXAMPLES[code], status: ERROR_CODES[code].status } }]),
        ),
      },
    },
  };
}

/**
 * The errors every authenticated operation can answer. Every request of a valid key, refused or
 * failed ones included, is counted against its quota, and its answer carries the RateLimit
 * fields (request-pipeline.ts); a 401 has no key to count.
 */
export const COMMON_ERROR_RESPONSES = {
  401: errorResponse('The API key is missing, unknown, expired or revoked.', ['unauthorized'], HEADERS.challenge),
  403: errorResponse('The API key lacks the scope this operation needs (see its security requirement).', ['insufficient_scope'], {
    ...HEADERS.scopeChallenge,
    ...HEADERS.rateLimit,
  }),
  429: errorResponse('Too many requests this minute with this key, or too many failed key verifications from this address.', ['rate_limited'], {
    ...HEADERS.retryAfter,
    ...HEADERS.rateLimit,
  }),
  500: errorResponse('Unexpected failure; nothing about it is disclosed. Quote `X-Request-Id` when reporting it.', ['internal_error'], HEADERS.rateLimit),
  503: errorResponse('The database is unreachable, locked, or did not answer in time.', ['service_unavailable'], {
    ...HEADERS.retryAfter,
    ...HEADERS.rateLimit,
  }),
};

/**
 * The errors of an operation that writes. Its 503 says what the client cannot know: a link that
 * fails after the database committed the write, but before the answer came back, still answers
 * 503; and how `Idempotency-Key` makes the retry safe. The "Retries and idempotency" section of docs/api.md
 * section says the same for people.
 */
export const WRITE_ERROR_RESPONSES = {
  ...COMMON_ERROR_RESPONSES,
  503: errorResponse(
    'The database is unreachable, locked, or did not answer in time, or the change kept colliding with concurrent ones. **With `Idempotency-Key`, retry with the same key** after `Retry-After`: a 503 is not kept, so the retry runs the write, which is safe because in each of these cases the database rolled the write back. One case stays uncertain even with a key: the database committed the write and the link to it broke before the commit was acknowledged; a retry then writes again (docs/api.md, "Retries and idempotency"). **Without a key, the write may or may not have happened.** Look for it before retrying (a walk of `GET /v1/pets` shows new pets last; `GET /v1/pets?id=…` shows a change or a removal; `GET /v1/store/orders?petId=…` an order); retrying blindly may store it twice.',
    ['service_unavailable'],
    { ...HEADERS.retryAfter, ...HEADERS.rateLimit },
  ),
};

/** Adds headers to every response of an operation (an operation's own headers, such as deprecation). */
export function withHeaders<T extends Record<number, { headers?: HeaderDocs }>>(responses: T, headers: HeaderDocs): T {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, { ...response, headers: { ...response.headers, ...headers } }]),
  ) as T;
}
