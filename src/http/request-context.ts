/**
 * Cross-cutting request context: the request id on every answer (accepted from the client
 * when sane, so a call can be traced across services), the safety headers on JSON, and the one
 * log line of every request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { holdsApiKey } from '../keys/api-key-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Its reply, for its log line when its client hangs up (onRequestAbort is given no reply). */
    replyToLog: FastifyReply | null;
    /** Its one log line is written. */
    requestLogged: boolean;
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the client's X-Request-Id when it is safe to echo and log, else a new
 * UUID. An id that holds an API key is not: it would be logged on every line of the request.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) && !holdsApiKey(given) ? given : randomUUID();
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

/**
 * One log line per request: when the answer is sent, or when the client hangs up before that
 * (`clientAborted: true`, with the status only if it was sent; null otherwise). Whichever comes
 * first writes it; a handler that answers later into the closed connection adds none.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.decorateRequest('replyToLog', null);
  app.decorateRequest('requestLogged', false);
  // Registered before any other hook, so even a request answered (or abandoned) in the first
  // onRequest hooks (a CORS preflight, a refused key) has its reply here.
  app.addHook('onRequest', (request, reply, done) => {
    request.replyToLog = reply;
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply, false);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    if (request.replyToLog) logRequest(request, request.replyToLog, true);
    done();
  });
}

function logRequest(request: FastifyRequest, reply: FastifyReply, clientAborted: boolean): void {
  if (request.requestLogged) return;
  request.requestLogged = true;
  request.replyToLog = null;
  request.log.info(
    {
      method: request.method,
      // Keys in it are redacted with every other logged string (app.ts, redactLogFields).
      url: request.url,
      route: request.routeOptions.url,
      statusCode: clientAborted && !reply.raw.headersSent ? null : reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      keyId: request.apiKey?.id,
      keyPrefix: request.apiKey?.prefix,
      ...(clientAborted ? { clientAborted } : {}),
    },
    'request',
  );
}
