/**
 * How open connections end when the app stops. Node's `server.close()` destroys every keep-alive
 * connection that is idle at that instant; but a client that has just read an answer sends its
 * next request on that connection a moment later, and the request, already on its way, is reset
 * (ECONNRESET) without an answer. Here, instead, from the start of a stop:
 * - every answer carries `Connection: close` (request-context.ts), so the connection ends after it;
 * - a connection idle at the stop (or that becomes idle while its client ignores that header)
 *   stays open for `idleGraceMs`: a request arriving meanwhile is served, then the connection
 *   ends; after the grace it is closed.
 * The whole stop stays bounded by the caller's shutdown timeout.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a connection idle during a stop may still bring one request. */
export const IDLE_GRACE_MS = 1000;

interface ConnectionState {
  /** Requests received on this connection and not yet answered. */
  active: number;
  graceTimer?: NodeJS.Timeout;
}

export function registerConnectionDrain(app: FastifyInstance, options: { idleGraceMs: number }): void {
  const server: Server = app.server;
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;

  const closeWhenStillIdle = (socket: Socket, state: ConnectionState) => {
    clearTimeout(state.graceTimer);
    state.graceTimer = setTimeout(() => {
      if (state.active === 0) socket.destroy();
    }, options.idleGraceMs);
  };

  server.on('connection', (socket: Socket) => {
    const state: ConnectionState = { active: 0 };
    connections.set(socket, state);
    socket.once('close', () => {
      clearTimeout(state.graceTimer);
      connections.delete(socket);
    });
    if (draining) closeWhenStillIdle(socket, state);
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.active += 1;
    clearTimeout(state.graceTimer);
    response.once('close', () => {
      state.active -= 1;
      if (draining && state.active === 0 && !request.socket.destroyed) closeWhenStillIdle(request.socket, state);
    });
  });

  app.addHook('preClose', async () => {
    draining = true;
    // Node's close() would destroy the idle connections at once; the grace above replaces that.
    server.closeIdleConnections = () => {};
    for (const [socket, state] of connections) if (state.active === 0) closeWhenStillIdle(socket, state);
  });
}

/**
 * Stops accepting connections, first thing in a stop. Answers with `Connection: close` make their
 * clients connect anew at once; if the listener were still open then, their new connections would
 * wait in the kernel's queue and be reset when it closes. Once it is closed, they are refused
 * (ECONNREFUSED: nothing was sent, so a client can safely go elsewhere). Fastify's own close still
 * waits for the open connections (net's close, without http's immediate close of idle ones).
 */
export function stopListening(server: Server): void {
  if (server.listening) NetServer.prototype.close.call(server);
}
