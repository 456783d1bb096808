/**
 * The one TCP proxy of the tests, HTTP-unaware, between a client and a server (the service and its
 * database, or a client and the service), which a test turns into a real network fault:
 * - `cut()` drops every connection and refuses new ones; `restore()` heals;
 * - `stall()` keeps connections open but lets no byte through (a black hole), `heldBytes()`
 *   resolves when a byte arrives and is held;
 * - `partitionAfter(trigger)`: the client → server chunk matching `trigger` still goes through, then
 *   nothing more does in either direction and closing either side is not passed on (a partition,
 *   with the server left holding whatever the matching statement took);
 * - `dropNextAnswers(n, method)`: the next n answers to requests of that method reach the server
 *   (which acts on them) but never the client, whose connection is cut instead (a lost answer).
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** `http://127.0.0.1:<port>`, for a proxy in front of an HTTP service. */
  baseUrl: string;
  cut(): Promise<void>;
  stall(): void;
  /** Resolves when bytes from the client arrive while stalled (held back): a query has reached the silent network. */
  heldBytes(): Promise<void>;
  /** Resolves once a client → server chunk matched `trigger` and the link is partitioned. */
  partitionAfter(trigger: RegExp): Promise<void>;
  dropNextAnswers(count: number, method: string): void;
  /** How many answers were dropped so far. */
  dropped(): number;
  restore(): Promise<void>;
  /** Closes every connection (a partition ends the hard way: the server sees its client gone) and stops listening. */
  close(): Promise<void>;
}

const REQUEST_LINE = /^([A-Z]+) \S+ HTTP\/1\.[01]\r\n/;

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  /** A partition also keeps each side's close from the other. */
  let partitioned = false;
  let partitionTrigger: { pattern: RegExp; reached: () => void } | undefined;
  let onHeld: (() => void)[] = [];
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
    client.on('data', (chunk: Buffer) => {
      if (stalled) {
        for (const resolve of onHeld) resolve();
        onHeld = [];
        return;
      }
      const text = chunk.toString('latin1');
      const method = REQUEST_LINE.exec(text)?.[1];
      if (method) lastMethod = method;
      upstream.write(chunk);
      if (partitionTrigger?.pattern.test(text)) {
        stalled = partitioned = true;
        partitionTrigger.reached();
        partitionTrigger = undefined;
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (stalled) return;
      if (toDrop > 0 && lastMethod === dropMethod) {
        toDrop--;
        dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('close', () => partitioned || upstream.destroy());
    upstream.on('close', () => partitioned || client.destroy());
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const dropAll = async () => {
    const closed = stopListening();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const port = await listen(0);

  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    cut: dropAll,
    stall() {
      stalled = true;
    },
    heldBytes() {
      return new Promise<void>((resolve) => onHeld.push(resolve));
    },
    partitionAfter(pattern) {
      return new Promise<void>((resolve) => (partitionTrigger = { pattern, reached: resolve }));
    },
    dropNextAnswers(count, method) {
      toDrop = count;
      dropMethod = method;
    },
    dropped: () => dropped,
    async restore() {
      stalled = partitioned = false;
      if (!server.listening) await listen(port);
    },
    close: dropAll,
  };
}

/**
 * A proxy in front of the PostgreSQL server of a DATABASE_URL, and `url`: the same URL (database,
 * schema, options) reaching that server through the proxy, for a database link a test can cut or stall.
 */
export async function startDatabaseProxy(databaseUrl: string): Promise<TcpProxy & { url: string }> {
  const direct = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const through = new URL(databaseUrl);
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  return Object.assign(proxy, { url: through.toString() });
}
