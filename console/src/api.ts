/**
 * The console's way to the API: `@animal-store/client` (its generated types, retries, error type
 * and events iterator) on the page's own origin. Calls go through the client's `raw` openapi-fetch
 * so the console keeps what its pages need and the client's helpers drop: one page at a time with
 * its `Link` cursor and the ETag of an animal.
 */
import { AnimalStoreError, type AnimalStoreErrorCode, createAnimalStoreClient, type Order, type Pet } from '@animal-store/client';

export type { Order, Pet };
export type Client = ReturnType<typeof createAnimalStoreClient>;

/** One problem of a refused request, naming its field (`body.name`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** What the console shows of a refusal: the client's error, with the problems per field the service listed (`details`). */
export class ConsoleError extends AnimalStoreError {}

/**
 * The window event of a key the service refused (401: revoked, expired or unknown) on any call of
 * its client, its `detail` being that key: the signed-in tab signs out (app.tsx).
 */
export const KEY_REFUSED = 'animal-store-console:key-refused';

export function clientFor(apiKey: string): Client {
  const fetchNoticingRefusal = async (request: Request) => {
    const response = await globalThis.fetch(request);
    if (response.status === 401) window.dispatchEvent(new CustomEvent(KEY_REFUSED, { detail: apiKey }));
    return response;
  };
  return createAnimalStoreClient({ baseUrl: window.location.origin, apiKey, fetch: fetchNoticingRefusal });
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function errorOf(response: Response, body: unknown): ConsoleError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof fields.code === 'string' && typeof fields.message === 'string') {
    const details = Array.isArray(fields.details) ? (fields.details as FieldProblem[]) : [];
    return new ConsoleError({ code: fields.code as AnimalStoreErrorCode, status: response.status, message: fields.message, requestId, details });
  }
  return new ConsoleError({ code: 'unexpected_response', status: response.status, message: `HTTP ${response.status} without the Error body`, requestId });
}

/** The answer of a call, or a ConsoleError for a refusal or no answer at all. */
export async function answer<T>(call: Promise<Outcome<T>>): Promise<{ data: T; response: Response }> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch (error) {
    if (error instanceof AnimalStoreError) throw error;
    throw new ConsoleError({ code: 'network_error', status: 0, message: `no answer from the service: ${(error as Error).message}`, cause: error });
  }
  if (!outcome.response.ok) throw errorOf(outcome.response, outcome.error);
  return { data: outcome.data as T, response: outcome.response };
}

/** An Idempotency-Key for one create. crypto.randomUUID exists only on https and localhost; getRandomValues everywhere. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The `cursor` of a `Link: <…>; rel="next"` header, or undefined on the last page. */
export function nextCursorOf(link: string | null): string | undefined {
  const target = /<([^>]*)>\s*;\s*rel="?next"?/.exec(link ?? '')?.[1];
  return target === undefined ? undefined : (new URL(target, window.location.origin).searchParams.get('cursor') ?? undefined);
}

/** A page of a listing and the cursor of the next one. */
export interface Page<T> {
  items: T[];
  next: string | undefined;
}

export function messageOf(error: unknown): string {
  if (error instanceof AnimalStoreError) return error.status === 0 ? `The service did not answer: ${error.message}` : error.message;
  return error instanceof Error ? error.message : String(error);
}
