/**
 * Cross-cutting response headers: the request id on every answer (accepted from the client
 * when sane, so a call can be traced across services), and the safety headers on JSON.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the client's X-Request-Id when it is safe to echo and log, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function registerResponseHeaders(app: FastifyInstance): void {
  let stopping = false;
  // From the start of a graceful stop, answers close their connection, so a keep-alive client
  // sends its next request to a live instance instead of into a socket about to be reset.
  app.addHook('preClose', async () => {
    stopping = true;
  });
  // Hooks that never wait are written with `done`: an async hook costs a promise and a microtask
  // on every request (docs/performance.md).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping) reply.header('connection', 'close');
    reply.header('x-content-type-options', 'nosniff');
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
