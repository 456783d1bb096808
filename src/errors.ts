/**
 * The closed list of error codes the service can answer, each with its HTTP status.
 * Services throw `AppError(code, message)`; only the HTTP error handler turns it into a response.
 * Adding a code here is an API change: document it in docs/api.md and the OpenAPI document.
 */
import { CONFIG_DEFAULTS } from './config-defaults.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency/idempotency-key.js';
import { WEBHOOK_ENDPOINTS_MAX } from './webhooks/webhook-endpoints.limits.js';

export const ERROR_CODES = {
  validation_failed: { status: 400, description: 'A parameter or the body is missing, has the wrong type, or breaks a limit.' },
  malformed_json: {
    status: 400,
    description:
      'The body is not valid JSON in UTF-8, is empty, holds a number that cannot be read exactly (it would be rounded), gives a field twice, or nests more than 256 levels deep.',
  },
  invalid_cursor: { status: 400, description: 'The cursor is not one this service made (cursors are signed), or was made for other filters.' },
  bad_request: {
    status: 400,
    description:
      'The HTTP request itself is malformed: an invalid URL encoding or request line or header, no Host header (HTTP/1.1) or more than one, more than one Authorization header, or a CONNECT request.',
  },
  invalid_idempotency_key: {
    status: 400,
    description: `The Idempotency-Key header is not one structured-field string ("…") or bare token of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters.`,
  },
  unauthorized: { status: 401, description: 'The bearer API key is missing, unknown, expired or revoked.' },
  insufficient_scope: { status: 403, description: 'The API key is valid but lacks the scope this operation needs; WWW-Authenticate names it.' },
  pet_not_found: { status: 404, description: 'No pet has this id.' },
  order_not_found: { status: 404, description: 'No order has this id.' },
  webhook_endpoint_not_found: { status: 404, description: 'No webhook endpoint has this id.' },
  webhook_delivery_not_found: { status: 404, description: 'The webhook endpoint has no delivery with this id.' },
  api_key_not_found: { status: 404, description: 'No API key has this id.' },
  route_not_found: { status: 404, description: 'No operation lives at this path.' },
  method_not_allowed: { status: 405, description: 'The path exists but not with this method; see the Allow header.' },
  request_timeout: { status: 408, description: 'The request was not received completely in time.' },
  pet_not_available: {
    status: 409,
    description: 'The pet cannot be ordered: it is not available (an open order holds it, or it is sold). The message names its status.',
  },
  order_state_conflict: {
    status: 409,
    description:
      'The order is not in a status this action applies to (approve a placed order, deliver an approved one, cancel an open one). The message names its status.',
  },
  pet_has_open_order: {
    status: 409,
    description:
      'The pet has an open (placed or approved) order: its status follows the order and it cannot be removed until the order is delivered or cancelled.',
  },
  pet_sold_by_order: { status: 409, description: 'The pet was sold by a delivered order: its status stays sold.' },
  webhook_endpoint_disabled: {
    status: 409,
    description: 'The webhook endpoint is disabled: nothing is sent to it. Enable it first (PATCH `status` `enabled`), then test it or retry the delivery.',
  },
  webhook_delivery_in_flight: {
    status: 409,
    description: 'An attempt of this delivery is being sent now (its dispatcher holds it); retry it by hand after that attempt ends.',
  },
  webhook_endpoint_limit: {
    status: 409,
    description: `The store has ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints, the most it may have: remove one before adding another.`,
  },
  webhook_secret_superseded: {
    status: 409,
    description:
      "A retry with an Idempotency-Key whose first answer carried a webhook signing secret that is no longer the endpoint's (rotated since, or the endpoint removed): the secret is not answered again. Read the endpoint; rotate its secret for a new one.",
  },
  api_key_already_issued: {
    status: 409,
    description:
      'A retry with an Idempotency-Key whose first answer made an API key: the key was shown then and is not answered again (the store keeps only its SHA-256). List the keys to find it, or revoke it and make another.',
  },
  idempotency_key_in_use: {
    status: 409,
    description: 'A request with this Idempotency-Key is still running; retry after the Retry-After delay to get its answer.',
  },
  cursor_expired: {
    status: 410,
    description: `Events after the cursor's position were purged (events are kept EVENT_RETENTION_DAYS, ${CONFIG_DEFAULTS.EVENT_RETENTION_DAYS} by default): the reader missed some. An old cursor that missed nothing stays valid.`,
  },
  operation_removed: { status: 410, description: 'The operation was deprecated and has passed its sunset date.' },
  precondition_failed: {
    status: 412,
    description: 'If-Match does not name the current ETag: the pet was changed since that ETag was read. Read it again, then retry.',
  },
  idempotency_key_reused: {
    status: 422,
    description: `This Idempotency-Key was already used by this API key for another request (another operation, path or body) while the key is kept (IDEMPOTENCY_KEY_TTL_HOURS, ${CONFIG_DEFAULTS.IDEMPOTENCY_KEY_TTL_HOURS} by default); use a new key for a new request.`,
  },
  expectation_failed: { status: 417, description: 'The Expect header asks for something other than 100-continue, the one expectation the service meets.' },
  payload_too_large: { status: 413, description: 'The body is larger than the configured limit.' },
  unsupported_media_type: { status: 415, description: 'The body is not application/json in UTF-8.' },
  headers_too_large: { status: 431, description: 'The request headers are larger than the server accepts.' },
  rate_limited: {
    status: 429,
    description:
      'Too many requests with this key this minute, or too many failed key verifications from this address (then only for tokens no key could match); retry after the Retry-After delay.',
  },
  too_many_streams: {
    status: 429,
    description: `This key already holds as many live streams of the events feed as one instance allows (EVENT_STREAMS_PER_KEY, ${CONFIG_DEFAULTS.EVENT_STREAMS_PER_KEY} by default); close one, or retry after the Retry-After delay.`,
  },
  internal_error: { status: 500, description: 'An unexpected failure; the request id in X-Request-Id finds it in the log.' },
  service_unavailable: {
    status: 503,
    description:
      'The database cannot be reached, is locked, or did not answer in time, or a change kept colliding with concurrent ones, or (a webhook URL) too many URL checks are running on this instance; retry after the Retry-After delay. On a write, the write may or may not have happened.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetail {
  /** Where the offending value is, such as `body.categoryId` or `query.limit`. */
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}
