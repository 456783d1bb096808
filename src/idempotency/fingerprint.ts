/**
 * What makes two requests "the same" for an idempotency key: the method, the route pattern, the
 * path parameters and the body. The body is hashed as parsed (its size is already bounded by
 * BODY_LIMIT, so hashing costs at most one pass over that many bytes); the same fields in another
 * order count as another body, since the service never reorders what a client sends.
 */
import { createHash } from 'node:crypto';

export interface RequestIdentity {
  method: string;
  /** The route pattern, such as `/v1/pets/:petId`, not the URL. */
  route: string;
  params: Record<string, unknown>;
  body: unknown;
}

export function fingerprintOf(request: RequestIdentity): string {
  const params = Object.keys(request.params)
    .sort()
    .map((name) => [name, request.params[name]]);
  const bodyHash = createHash('sha256')
    .update(request.body === undefined ? '' : JSON.stringify(request.body))
    .digest('base64url');
  return createHash('sha256')
    .update(JSON.stringify([request.method.toUpperCase(), request.route, params, bodyHash]))
    .digest('base64url');
}
