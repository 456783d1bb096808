/**
 * HTTP rules Node's server enforces with answers of its own (a bare 400 for a request without
 * Host, a bare 417 for an unknown expectation, a dropped socket for CONNECT), checked here instead
 * so that those refusals leave in the one Error shape, with X-Request-Id and a log line, like
 * every other. The checks are pure functions; the registration only wires them to the server.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { occurrencesOf } from './raw-headers.js';
import { writeRawError } from './error-handler.js';

/** Options of Node's server that hand these checks to the service (passed as Fastify's `http`). */
export const PROTOCOL_SERVER_OPTIONS = { requireHostHeader: false } as const;

/**
 * `uri-host [ ":" port ]` (RFC 3986 §3.2.2): an IP literal in brackets, or a reg-name (which
 * covers IPv4 and may be empty), then digits after one colon. An IPv6 zone (RFC 6874, `%25eth0`) is kept.
 */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=%-]+\]|[0-9A-Za-z._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** What is wrong with the request at the protocol level, if anything. */
export function protocolProblem(request: Pick<IncomingMessage, 'httpVersion' | 'headers' | 'rawHeaders'>): AppError | undefined {
  // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request with no Host, and to any
  // request with more than one or with an invalid value. HTTP/1.0 had no Host, so a request of it
  // without one is served.
  const hosts = occurrencesOf('host', request.rawHeaders);
  if (hosts === 0 && request.httpVersion !== '1.0') return new AppError('bad_request', 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2)');
  if (hosts > 1) return new AppError('bad_request', 'send one Host header, not several (RFC 9112 §3.2)');
  const host = request.headers.host;
  if (host !== undefined && !HOST_VALUE.test(host))
    return new AppError('bad_request', 'the Host header is not a host with an optional port (RFC 9112 §3.2, RFC 3986 §3.2.2)');
  const expect = request.headers.expect;
  // RFC 9110 §10.1.1: 100-continue is the one expectation defined; any other cannot be met.
  if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') {
    return new AppError('expectation_failed', 'the only expectation this service meets is Expect: 100-continue');
  }
  return undefined;
}

/**
 * Hands Node's own protocol answers to the service; the check itself (protocolProblem) runs in
 * the "identify" phase of request-pipeline.ts, after the request id, before any route's hooks.
 */
export function registerProtocolChecks(app: FastifyInstance): void {
  // With a listener, Node no longer answers 417 itself: the request goes on, and the hook refuses it.
  app.server.on('checkExpectation', (request: IncomingMessage, response) => app.server.emit('request', request, response));
  // Without a listener, Node drops the connection of a CONNECT request without a word.
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = randomUUID();
    const error = new AppError('bad_request', 'CONNECT is not served: this service is not a proxy');
    writeRawError(socket, error, requestId);
    app.log.info({ requestId, method: request.method, statusCode: error.status, code: error.code }, 'request');
    socket.destroy();
  });
}
