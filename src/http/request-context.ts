/**
 * Cross-cutting request context: the request id on every answer (accepted from the client
 * when sane, so a call can be traced across services), the safety headers on JSON, and the one
 * log line of every request (the access log). request-pipeline.ts calls these in its phases.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { holdsSecret } from '../secrets/log-redaction.js';
import { writeAccessLine } from './access-log-line.js';

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
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) && !holdsSecret(given) ? given : randomUUID();
}

/**
 * Identifies the request, first thing: its reply is kept for its log line (even a request
 * answered or abandoned in the first checks has one), and its answer carries X-Request-Id.
 */
export function identifyRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.replyToLog = reply;
  reply.header('x-request-id', request.id);
}

/**
 * The headers every answer carries: `nosniff`, `no-store` on JSON, and, from the start of a
 * graceful stop (`stopping`), `Connection: close`, so a keep-alive client sends its next request
 * to a live instance instead of into a socket about to be reset.
 */
export function setAnswerHeaders(reply: FastifyReply, stopping: boolean): void {
  if (stopping) reply.header('connection', 'close');
  reply.header('x-content-type-options', 'nosniff');
  if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.header('cache-control', 'no-store');
}

/**
 * One log line per request: when the answer is sent, or when the client hangs up before that
 * (`clientAborted: true`, with the status only if it was sent; null otherwise), or when the service
 * cuts an events stream, for a stalled reader or a stop (events.live-http.ts, as answered). Whichever
 * comes first writes it; a handler that answers later into the closed connection adds none.
 */
export function decorateRequestLog(app: FastifyInstance): void {
  app.decorateRequest('replyToLog', null);
  app.decorateRequest('requestLogged', false);
}

/** The log line of a request whose client hung up, if its answer has not written one. */
export function logAbortedRequest(request: FastifyRequest): void {
  if (request.replyToLog) logRequest(request, request.replyToLog, true);
}

export function logRequest(request: FastifyRequest, reply: FastifyReply, clientAborted: boolean): void {
  if (request.requestLogged) return;
  request.requestLogged = true;
  request.replyToLog = null;
  const key = request.apiKey;
  writeAccessLine(request.log, {
    method: request.method,
    url: request.url,
    route: request.routeOptions.url,
    statusCode: clientAborted && !reply.raw.headersSent ? null : reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 100) / 100,
    keyId: key?.id,
    keyPrefix: key?.prefix,
    clientAborted,
  });
}
