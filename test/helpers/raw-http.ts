/**
 * HTTP spoken over a raw TCP socket, for the tests of what a real client library would never send
 * (malformed heads, odd versions, `Expect: 100-continue` stopped half-way) or never show (the
 * exact bytes of an answer the server writes before any route runs).
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Every byte received, as text. */
  raw: string;
}

function parse(received: string): RawAnswer {
  const end = received.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  return { status: Number(statusLine?.split(' ')[1]), headers, body: received.slice(end + 4), raw: received };
}

/**
 * Sends raw bytes and reads the first answer: complete once its Content-Length of body is in, or
 * when the server ends the connection. `end: true` half-closes the connection after the bytes,
 * as a client with nothing more to say does.
 */
export function rawRequest(port: number, text: string, options: { end?: boolean } = {}): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => (options.end ? socket.end(text) : socket.write(text)));
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(parse(received));
    };
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(received.slice(0, end))?.[1];
      if (end !== -1 && length !== undefined && received.length - end - 4 >= Number(length)) done();
    });
    socket.on('close', done).on('error', reject);
  });
}

/** Sends the head of a POST /v1/pets that asks `Expect: 100-continue`, and answers the first bytes the service sends back. */
export async function askToContinue(port: number, headers: string, bodyLength: number): Promise<{ socket: Socket; first: string }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nContent-Length: ${bodyLength}\r\nExpect: 100-continue\r\n\r\n`,
  );
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  return { socket, first: String(chunk) };
}
