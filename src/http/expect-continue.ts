/**
 * `Expect: 100-continue`: the client asks whether it should send its body. Node answers
 * `100 Continue` at once, before any check, which invites an upload that is then refused. Here
 * the interim answer waits until the request has passed its checks (key, rate limit, route) and
 * its body is about to be read; a request refused before that (401, 404, 405, 429, or 413 from
 * its Content-Length) gets only its final answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

export function registerExpectContinue(app: FastifyInstance): void {
  // With a listener here, Node no longer answers 100 Continue itself; the request goes on as usual.
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => app.server.emit('request', request, response));
  // preParsing runs after every onRequest hook (auth, rate limit) and right before the body is read.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (shouldInviteBody(request.headers, request.routeOptions.bodyLimit)) reply.raw.writeContinue();
    done(null, payload);
  });
}

/** Whether a request that passed its checks should be told to send its body. */
export function shouldInviteBody(headers: IncomingMessage['headers'], bodyLimit: number | undefined): boolean {
  if (headers.expect?.toLowerCase() !== '100-continue') return false;
  const length = Number(headers['content-length']);
  return !(bodyLimit !== undefined && Number.isFinite(length) && length > bodyLimit);
}
