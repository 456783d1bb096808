/**
 * Early answers to requests whose body is still arriving (413 from Content-Length, 401 before the
 * body is read). Node ends such a connection right after the answer; the rest of the upload then
 * reaches a closed socket, the kernel resets the connection, and the reset can discard the answer
 * before the client reads it (Node's fetch reported EPIPE instead of the 413). So, as nginx's
 * lingering close does: the answer carries `Connection: close`, the service stops writing but
 * keeps reading and discarding what the client still sends, until the client closes its side or
 * a bound of bytes or time is reached, whichever comes first.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface LingerLimits {
  maxBytes: number;
  maxMs: number;
}

/** Enough for a client to notice the answer and stop sending; a hostile sender costs at most this. */
export const LINGER_LIMITS: LingerLimits = { maxBytes: 16 * 1024 * 1024, maxMs: 5000 };

/** Called as the answer is sent (request-pipeline.ts): lingers when the body is still arriving. */
export function lingerIfBodyArriving(request: FastifyRequest, reply: FastifyReply, limits: LingerLimits): void {
  if (bodyStillArriving(request.raw)) {
    reply.header('connection', 'close');
    lingerOnClose(request.raw.socket, limits);
  }
}

/** Whether the request's body has not been received completely (a request without body is complete at once). */
function bodyStillArriving(request: Pick<IncomingMessage, 'complete' | 'readableEnded' | 'headers'>): boolean {
  return declaresBody(request.headers) && !request.complete && !request.readableEnded;
}

/**
 * Whether the request has a body at all (RFC 9112 §6.3). A request without one can be answered
 * while Node has not yet marked it complete: an answer sent without waiting (a page kept in
 * memory) is sent before the parser has finished the request it came from.
 */
function declaresBody(headers: IncomingMessage['headers']): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

const lingering = new WeakSet<Socket>();

function lingerOnClose(socket: Socket, limits: LingerLimits): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node ends a connection whose answer said `Connection: close` with destroySoon(): end, then
  // destroy as soon as the answer is written. Here the destroy waits for the client instead.
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    let received = 0;
    const stop = () => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(stop, limits.maxMs);
    this.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) stop();
    });
    this.once('end', stop);
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}
