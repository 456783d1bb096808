/**
 * Authentication: the bearer key of a request, verified (keys/keys.service.ts), or a 401 (a 429
 * for an address whose made-up keys keep failing: the brake in rate-limit.ts). Pure steps, run
 * in order by the one admission hook of access-control.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { occurrencesOf } from '../http/raw-headers.js';
import type { KeyCheck, VerifiedKey } from '../keys/keys.service.js';
import type { FailedVerificationBrake } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: VerifiedKey;
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;
export const REALM = 'realm="animal-store"';

/** The bearer token, or 400/401 when the Authorization header does not carry exactly one. */
export function bearerTokenFrom(request: FastifyRequest, reply: FastifyReply): string {
  // Node keeps only the first of repeated Authorization headers; which credentials a proxy or
  // a client meant is unknowable, so neither is tried.
  if (occurrencesOf('authorization', request.raw.rawHeaders) > 1) {
    throw new AppError('bad_request', 'send one Authorization header, not several');
  }
  const header = request.headers.authorization;
  const token = bearerTokenOf(header);
  if (token === undefined) {
    // RFC 6750 §3.1: a request with no credentials gets the challenge without an error code.
    reply.header('www-authenticate', header === undefined ? `Bearer ${REALM}` : `Bearer ${REALM}, error="invalid_request"`);
    throw new AppError(
      'unauthorized',
      header === undefined ? 'a valid API key is required: send Authorization: Bearer <API_KEY>' : 'the Authorization header must be: Bearer <API_KEY>',
    );
  }
  return token;
}

/** The verified key, or throws 401 (counting the failure against the address). */
export function keyOrRefuse(request: FastifyRequest, reply: FastifyReply, check: KeyCheck, brake: FailedVerificationBrake | undefined): VerifiedKey {
  if (check.key) return check.key;
  // Only tokens that are no usable key's are ever refused for the address's failures.
  if (check.failure === 'unknown_key') brake?.refuseIfExhausted(request.ip, reply);
  // Tokens that are not even key-shaped cost nothing, so they do not count against the address.
  if (check.failure !== 'malformed') brake?.recordFailure(request.ip);
  reply.header('www-authenticate', `Bearer ${REALM}, error="invalid_token"`);
  throw new AppError('unauthorized', 'the API key is unknown, expired or revoked');
}

/** The token of an `Authorization: Bearer <token>` header (scheme in any case), if it is one. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
