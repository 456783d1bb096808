/**
 * Scopes: every route declares either `config: { scope: 'pets:read' }` (the scope a key needs),
 * `config: { anyKey: true }` (any valid key, whatever its scopes: a key asking about itself) or
 * `config: { public: true }` (health checks, the OpenAPI document, docs); a route with none
 * stops the service at start, so no operation is left open by omission. A key without
 * the route's scope is refused with 403, after the quota has counted it (access-control.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { VerifiedKey } from '../keys/keys.service.js';
import { isScope, type Scope, SCOPES } from '../keys/scopes.js';
import { REALM } from './authentication.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** True for routes that need no API key. */
    public?: boolean;
    /** True for routes any valid API key may call, whatever its scopes. */
    anyKey?: boolean;
    /**
     * The scope a key needs for this route, or a list of scopes of which it needs one (the events
     * feed, which answers each key the events its scopes can read); also listed in its OpenAPI
     * security requirement.
     */
    scope?: Scope | readonly Scope[];
  }
}

/** Stops the service at start when a route of `app` declares neither a scope nor `public`. */
export function requireAccessDeclarations(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { public?: boolean; anyKey?: boolean; scope?: string | readonly string[] };
    if (config.public || (config.anyKey && config.scope === undefined)) return;
    const scopes = typeof config.scope === 'string' ? [config.scope] : config.scope;
    if (scopes === undefined || scopes.length === 0 || !scopes.every(isScope)) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} must declare config.scope (one of ${SCOPES.join(', ')}), config.anyKey or config.public` +
          (config.scope === undefined ? '' : `; ${JSON.stringify(config.scope)} is no scope`),
      );
    }
  });
}

/** Throws 403 insufficient_scope when the key lacks the scope the route declares. */
export function refuseWithoutScope(request: FastifyRequest, reply: FastifyReply, key: VerifiedKey): void {
  const { config } = request.routeOptions;
  if (config.anyKey) return;
  const needed = config.scope!;
  if (typeof needed === 'string' ? key.scopes.includes(needed) : needed.some((scope) => key.scopes.includes(scope))) return;
  // RFC 6750 §3.1: the key is valid but not enough; the challenge names the scope it lacks.
  reply.header('www-authenticate', `Bearer ${REALM}, error="insufficient_scope", scope="${typeof needed === 'string' ? needed : needed.join(' ')}"`);
  const named = typeof needed === 'string' ? needed : needed.join(' or ');
  throw new AppError(
    'insufficient_scope',
    `this key lacks the scope ${named} that ${request.method} ${request.routeOptions.url} needs; its scopes: ${key.scopes.join(', ')}`,
  );
}
