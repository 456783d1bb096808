/**
 * Bearer authentication and scopes, as two onRequest hooks that http/operation-pipeline.ts
 * registers in order with the quota between them: a request without a valid key learns nothing
 * else about itself (401 first); a valid key is counted against its quota (429 when spent); and
 * only then is a key without the scope the route declares refused (403), before the body is read.
 * Every route in the scope declares either `config: { scope: 'pets:read' }` (the scope a key
 * needs) or `config: { public: true }` (health checks, the OpenAPI document, docs); a route
 * with neither stops the service at start, so no operation is left open by omission.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { KeyCheck, KeyVerifier, VerifiedKey } from '../keys/keys.service.js';
import { isScope, type Scope, SCOPES } from '../keys/scopes.js';
import type { FailedVerificationBrake } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** True for routes that need no API key. */
    public?: boolean;
    /**
     * The scope a key needs for this route, or a list of scopes of which it needs one (the events
     * feed, which answers each key the events its scopes can read); also listed in its OpenAPI
     * security requirement.
     */
    scope?: Scope | readonly Scope[];
  }
  interface FastifyRequest {
    apiKey?: VerifiedKey;
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;
const REALM = 'realm="animal-store"';

export function registerBearerAuth(app: FastifyInstance, verifier: KeyVerifier, brake?: FailedVerificationBrake): void {
  app.decorateRequest('apiKey', undefined);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { public?: boolean; scope?: string | readonly string[] };
    if (config.public) return;
    const scopes = typeof config.scope === 'string' ? [config.scope] : config.scope;
    if (scopes === undefined || scopes.length === 0 || !scopes.every(isScope)) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} must declare config.scope (one of ${SCOPES.join(', ')}) or config.public` +
          (config.scope === undefined ? '' : `; ${JSON.stringify(config.scope)} is no scope`),
      );
    }
  });
  // Written with `done`: a key verified in the last KEY_CACHE_TTL_MS is checked without a promise
  // (docs/performance.md); only a key not cached waits for the database.
  app.addHook('onRequest', (request, reply, done) => {
    // Unknown routes have no url pattern; they answer 404/405 without asking for a key.
    if (request.routeOptions.config.public || request.routeOptions.url === undefined) return done();
    const token = tokenOf(request, reply);
    const cached = verifier.verifyCached(token);
    if (cached !== undefined) {
      admit(request, reply, cached);
      return done();
    }
    verifier.verify(token).then((check) => {
      try {
        admit(request, reply, check);
      } catch (error) {
        return done(error as Error);
      }
      done();
    }, done);
  });

  /** The bearer token, or 400/401 when the Authorization header does not carry exactly one. */
  const tokenOf = (request: FastifyRequest, reply: FastifyReply): string => {
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
  };

  /** Sets `request.apiKey`, or throws 401 (counting the failure against the address). */
  const admit = (request: FastifyRequest, reply: FastifyReply, check: KeyCheck): void => {
    if (!check.key) {
      // Only tokens that are no usable key's are ever refused for the address's failures.
      if (check.failure === 'unknown_key') brake?.refuseIfExhausted(request.ip, reply);
      // Tokens that are not even key-shaped cost nothing, so they do not count against the address.
      if (check.failure !== 'malformed') brake?.recordFailure(request.ip);
      reply.header('www-authenticate', `Bearer ${REALM}, error="invalid_token"`);
      throw new AppError('unauthorized', 'the API key is unknown, expired or revoked');
    }
    request.apiKey = check.key;
  };
}

/**
 * Refuses a verified key that lacks the route's scope with 403. A hook of its own, registered
 * after the quota's, so a refused request still counts and carries the RateLimit fields.
 */
export function registerScopeCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const key = request.apiKey;
    // Public and unknown routes set no key; the auth hook before this one saw to the others.
    if (key === undefined) return done();
    const needed = request.routeOptions.config.scope!;
    if (typeof needed === 'string' ? !key.scopes.includes(needed) : !needed.some((scope) => key.scopes.includes(scope))) {
      // RFC 6750 §3.1: the key is valid but not enough; the challenge names the scope it lacks.
      const named = typeof needed === 'string' ? needed : needed.join(' or ');
      reply.header('www-authenticate', `Bearer ${REALM}, error="insufficient_scope", scope="${typeof needed === 'string' ? needed : needed.join(' ')}"`);
      throw new AppError('insufficient_scope', `this key lacks the scope ${named} that ${request.method} ${request.routeOptions.url} needs; its scopes: ${key.scopes.join(', ')}`);
    }
    done();
  });
}

/** How many times a header (lower-case name) occurs in Node's `rawHeaders` (name, value, name, value…). */
export function occurrencesOf(name: string, rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) count += 1;
  return count;
}

/** The token of an `Authorization: Bearer <token>` header (scheme in any case), if it is one. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
