/**
 * Access control, the "admit" phase of request-pipeline.ts: who may call, how often, and what.
 * One onRequest hook in the /v1 scope runs its three checks in this order, before the body is
 * read:
 *   1. authenticate  401 without a valid key (429 for an address whose made-up keys keep failing)
 *   2. quota         the key's request is counted and the answer carries RateLimit and
 *                    RateLimit-Policy, whatever it turns out to be; 429 when the quota is spent
 *   3. scope         403 insufficient_scope
 * One hook rather than three: the order cannot be broken by registering them apart, and a
 * cached key is admitted with no promise and no hook hop between checks (docs/performance.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyCheck, KeyVerifier } from '../keys/keys.service.js';
import { bearerTokenFrom, keyOrRefuse } from './authentication.js';
import type { RateLimit } from './rate-limit.js';
import { refuseWithoutScope, requireAccessDeclarations } from './scope-check.js';

export interface AccessControlOptions {
  verifier: KeyVerifier;
  /** Undefined when turned off, and in tests of the scope declarations alone. */
  rateLimit?: RateLimit | undefined;
}

export function registerAccessControl(scope: FastifyInstance, options: AccessControlOptions): void {
  const { verifier, rateLimit } = options;
  scope.decorateRequest('apiKey', undefined);
  requireAccessDeclarations(scope);

  const admit = (request: FastifyRequest, reply: FastifyReply, check: KeyCheck): void => {
    const key = keyOrRefuse(request, reply, check, rateLimit?.brake); // 1
    request.apiKey = key;
    rateLimit?.countRequest(reply, key.id); // 2
    refuseWithoutScope(request, reply, key); // 3
  };

  // Written with `done`: a key verified in the last KEY_CACHE_TTL_MS is checked without a promise;
  // only a key not cached waits for the database. A throw reaches the error handler as from an async hook.
  scope.addHook('onRequest', (request, reply, done) => {
    // Unknown routes have no url pattern; they answer 404/405 without asking for a key.
    // Read once: Fastify builds a new routeOptions object at each read.
    const route = request.routeOptions;
    if (route.config.public || route.url === undefined) return done();
    const token = bearerTokenFrom(request, reply);
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
}
