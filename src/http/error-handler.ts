/**
 * The one place that turns failures into responses. Everything the service can answer as an
 * error, the framework's own failures included, leaves here as `{code, message, status}`.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { isTransactionConflict } from '../db/retry-conflicts.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { redactSecrets } from '../secrets/log-redaction.js';
import { createRouteTable, type RouteTable } from './route-table.js';
import { describeValidationErrors } from './validation.js';

/** Seconds a client should wait before retrying when the database is unreachable. */
const RETRY_AFTER_SECONDS = 5;

/** `routes` (route-table.ts, the one the app's CORS reads too) tells a 404 from a 405 and fills `Allow`. */
export function registerErrorHandling(app: FastifyInstance, routes: RouteTable = createRouteTable(app)): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsAt(path);
    // A route that takes this very method and still found nothing (a missing file under
    // /docs/static/*) is a 404; only another method's path is a 405.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`));
    }
    return sendError(reply, new AppError('route_not_found', `no operation at ${request.method} ${path}`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.code === 'internal_error') request.log.error({ err: error }, 'request failed');
    else if (appError.code === 'service_unavailable')
      request.log.warn({ err: error }, error instanceof AppError ? 'service unavailable' : 'database unavailable');
    if (appError.code === 'service_unavailable') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return sendError(reply, appError);
  });
}

/**
 * Fastify's `frameworkErrors`: failures found before any route is chosen (a URL that does not
 * decode, an over-long path parameter), answered in the one Error shape.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No route was chosen, so no hook runs: the headers every answer carries, and the request's
  // one log line, are made here.
  reply.headers({ 'x-request-id': reply.request.id, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  const appError = new AppError('bad_request', error.code === 'FST_ERR_BAD_URL' ? `the URL is not valid: ${error.message}` : error.message);
  sendError(reply, appError);
  request.log.info({ method: request.method, url: redactSecrets(request.url), statusCode: appError.status, code: appError.code }, 'request');
}

/**
 * Node's `clientError`: the HTTP parser rejected the request before Fastify saw it (a malformed
 * request line or header, headers too large, a request that took too long to arrive). There is
 * no request object, so the Error body is written straight to the socket.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  const appError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('request_timeout', 'the request was not received completely in time')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('headers_too_large', 'the request headers are too large')
        : new AppError('bad_request', 'the HTTP request is malformed');
  writeRawError(socket, appError, requestId);
  // The one log line of this request, like every other request's.
  this.log.info({ requestId, statusCode: appError.status, code: appError.code, parserError: error.code }, 'request');
  socket.destroy(error);
}

/** Writes an Error answer straight to a socket that has no request object, and asks to close it. */
export function writeRawError(socket: Duplex, appError: AppError, requestId: string): void {
  if (!socket.writable) return;
  const body = JSON.stringify({ code: appError.code, message: appError.message, status: appError.status });
  socket.write(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The error code each refused reply was answered with, for the completion step's metrics (two codes share 429). */
const answeredCodes = new WeakMap<FastifyReply, string>();

/** The `code` of the Error body this reply carries; undefined when it is not an error answered here. */
export function errorCodeOf(reply: FastifyReply): string | undefined {
  return answeredCodes.get(reply);
}

function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  answeredCodes.set(reply, error.code);
  const body: { code: string; message: string; status: number; details?: ErrorDetail[] } = {
    code: error.code,
    message: error.message,
    status: error.status,
  };
  if (error.details && error.details.length > 0) body.details = error.details;
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

function toAppError(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const { problems, message } = describeValidationErrors(error.validation as never, error.validationContext);
    return new AppError('validation_failed', message, problems);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        `body must be ${(request.routeOptions.config.bodyMediaTypes ?? ['application/json']).join(' or ')}, not ${request.headers['content-type'] ?? 'a body without Content-Type'}`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', `body is larger than ${request.routeOptions.bodyLimit} bytes`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', 'body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('malformed_json', 'Content-Length does not match the body');
  }
  // Any other client error the framework raises (an aborted upload, say) keeps its 4xx meaning;
  // it is checked before the database test because both can carry codes such as ECONNRESET.
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return new AppError('bad_request', error.message);
  if (isDatabaseUnavailable(error)) return new AppError('service_unavailable', 'the database is not reachable; retry later');
  // A deadlock or serialization failure that no retry caught (retry-conflicts.ts): nothing was written; retrying is the remedy, as for an outage.
  if (isTransactionConflict(error)) return new AppError('service_unavailable', 'the request collided with concurrent changes; retry later');
  return new AppError('internal_error', 'internal error; quote the X-Request-Id header when reporting it');
}
