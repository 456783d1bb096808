/**
 * The webhook sender's sockets, over all its agents: at most `max` open at once, in use or kept
 * idle for reuse, so receivers cannot take the descriptors the API needs (WEBHOOK_MAX_SOCKETS).
 * Each attempt holds one socket from its start to its end (webhook-sender.ts) and the dispatcher
 * never has more than `max` attempts in flight (webhook-send-queue.ts), so when the cap is reached
 * an idle socket is always there to close: a new connection never waits, and none is refused here.
 */
import type { Agent } from 'node:http';
import type { Duplex } from 'node:stream';

export function capSockets(agents: readonly Agent[], max: number): void {
  const open = new Set<Duplex>();
  const closeAnIdleOne = () => {
    for (const agent of agents) {
      for (const idle of Object.values(agent.freeSockets)) {
        const socket = idle?.[0];
        if (socket === undefined) continue;
        // Its descriptor is closed now; its 'close' event comes later.
        open.delete(socket);
        socket.destroy();
        return;
      }
    }
  };
  for (const agent of agents) {
    const create = agent.createConnection.bind(agent);
    agent.createConnection = (options, callback) => {
      if (open.size >= max) closeAnIdleOne();
      const socket = create(options, callback);
      if (socket) {
        open.add(socket);
        socket.once('close', () => open.delete(socket));
      }
      return socket;
    };
  }
}
