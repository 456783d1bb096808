/**
 * Which browser origins may call the API, and what the CORS headers say: pure logic, apart from
 * the Fastify wiring in cors.ts, so the rules have unit tests of their own.
 *
 * No credentials mode: the API authenticates with bearer keys a page sends itself, never with
 * cookies, so `Access-Control-Allow-Credentials` is never sent and `*` is safe to offer.
 */

/** `*` (any origin) or the exact origins allowed; an empty list turns CORS off. */
export type CorsOrigins = '*' | readonly string[];

/** Request headers a page may send: the ones the API reads. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'X-Request-Id'] as const;

/** Response headers a page may read: everything the API answers with meaning beyond the body. */
export const CORS_EXPOSED_HEADERS = [
  'Link',
  'Location',
  'ETag',
  'Deprecation',
  'Sunset',
  // The fields rate-limit.ts sends (draft-ietf-httpapi-ratelimit-headers-11).
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
] as const;

/**
 * How long a browser may reuse a preflight answer: ten minutes, so a change of CORS_ORIGINS
 * reaches open pages soon, while a page calling often preflights each URL only once in a while.
 */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * Reads CORS_ORIGINS: empty for none, `*`, or a comma-separated list of exact origins
 * (`https://shop.example`, `http://localhost:3000`). Answers the origins, or the problem.
 * An entry that is not exactly an origin (a trailing slash, a path, upper case, a default port)
 * is refused with the spelling a browser sends, since it would otherwise never match.
 */
export function parseCorsOrigins(raw: string): { origins: CorsOrigins } | { problem: string } {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return { origins: [] };
  if (entries.includes('*')) {
    return entries.length === 1 ? { origins: '*' } : { problem: 'CORS_ORIGINS must be either * alone or a list of origins, not both' };
  }
  for (const entry of entries) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol)) {
      return { problem: `CORS_ORIGINS entries must be origins such as https://shop.example (got ${JSON.stringify(entry)})` };
    }
    if (url.origin !== entry) {
      return { problem: `CORS_ORIGINS entry ${JSON.stringify(entry)} is not an origin as browsers send it; write ${url.origin}` };
    }
  }
  return { origins: [...new Set(entries)] };
}

/** The `Access-Control-Allow-Origin` value for a request's `Origin`, or undefined when it is not allowed. */
export function allowedOriginFor(origins: CorsOrigins, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (origins === '*') return '*';
  return origins.includes(origin) ? origin : undefined;
}

/** Headers of an actual (non-preflight) answer to an allowed origin. */
export function actualResponseHeaders(allowOrigin: string): Record<string, string> {
  return {
    'access-control-allow-origin': allowOrigin,
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
  };
}

/** Headers of a preflight answer to an allowed origin, for a path that allows `methods`. */
export function preflightHeaders(allowOrigin: string, methods: readonly string[]): Record<string, string> {
  return {
    'access-control-allow-origin': allowOrigin,
    'access-control-allow-methods': methods.join(', '),
    'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
  };
}

/** A CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method` (Fetch standard). */
export function isPreflight(method: string, headers: Record<string, string | string[] | undefined>): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}
