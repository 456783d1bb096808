/**
 * The one error the client throws: the service's Error body (`code`, `status`, `message`,
 * `details`) plus the request id of the answer, or a client-side code when no usable answer came at all.
 */
import type { components } from './openapi.js';

/** The service's closed list of error codes (from openapi.json), and the two the client adds. */
export type AnimalStoreErrorCode = components['schemas']['Error']['code'] | 'network_error' | 'unexpected_response';

/** One problem of a refused request (validation_failed): the field it concerns, such as `body.categoryId`, and what is wrong. */
export type AnimalStoreErrorDetail = Readonly<NonNullable<components['schemas']['Error']['details']>[number]>;

export class AnimalStoreError extends Error {
  override readonly name = 'AnimalStoreError';
  readonly code: AnimalStoreErrorCode;
  /** The HTTP status of the answer; 0 when no answer came (network_error). */
  readonly status: number;
  /** The answer's X-Request-Id, to quote when asking the operator; undefined when no answer came. */
  readonly requestId: string | undefined;
  /** The problems the service named, each with its field (validation_failed); empty when it named none. */
  readonly details: readonly AnimalStoreErrorDetail[];

  constructor(fields: {
    code: AnimalStoreErrorCode;
    status: number;
    message: string;
    requestId?: string | undefined;
    details?: readonly AnimalStoreErrorDetail[] | undefined;
    cause?: unknown;
  }) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.code = fields.code;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.details = Object.freeze(fields.details ?? []);
  }
}

function isErrorBody(body: unknown): body is components['schemas']['Error'] {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message, status } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && typeof status === 'number';
}

/** The error an unsuccessful answer stands for; a body that is not the Error shape is reported as such, never guessed at. */
export function errorFromResponse(response: Response, body: unknown): AnimalStoreError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (isErrorBody(body))
    return new AnimalStoreError({ code: body.code, status: response.status, message: body.message, requestId, details: detailsOf(body.details) });
  return new AnimalStoreError({ code: 'unexpected_response', status: response.status, message: `HTTP ${response.status} without the Error body`, requestId });
}

/** The body's details, kept only as the documented shape: a client never trusts more than that. */
function detailsOf(details: unknown): AnimalStoreErrorDetail[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail: unknown) => {
    const { field, message } = (detail ?? {}) as Record<string, unknown>;
    return typeof field === 'string' && typeof message === 'string' ? [{ field, message }] : [];
  });
}
