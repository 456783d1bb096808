/**
 * An HTTP-unaware TCP proxy in front of the service that can drop answers: after
 * `dropNextAnswers(n, method)`, the next n answers to requests of that method reach the service
 * (which acts on them) but their bytes never reach the client, whose connection is cut instead.
 * This is the lost answer a client must survive without acting twice.
 */
import net from 'node:net';

export interface DroppingProxy {
  baseUrl: string;
  dropNextAnswers(count: number, method: string): void;
  /** How many answers were dropped so far. */
  dropped(): number;
  close(): Promise<void>;
}

const REQUEST_LINE = /^([A-Z]+) \S+ HTTP\/1\.[01]\r\n/;

export async function startDroppingProxy(target: { host: string; port: number }): Promise<DroppingProxy> {
  const sockets = new Set<net.Socket>();
  let toDrop = 0;
  let dropMethod = '';
  let dropped = 0;

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    // The method of the last request on this connection (requests are small and come one at a time).
    let lastMethod = '';
    client.on('data', (chunk) => {
      const method = REQUEST_LINE.exec(chunk.toString('latin1'))?.[1];
      if (method) lastMethod = method;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (toDrop > 0 && lastMethod === dropMethod) {
        toDrop--;
        dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dropNextAnswers(count, method) {
      toDrop = count;
      dropMethod = method;
    },
    dropped: () => dropped,
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
