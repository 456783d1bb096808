/**
 * A TLS-terminating proxy on 127.0.0.1 in front of PostgreSQL, as a managed server's TLS looks to
 * the service: it answers PostgreSQL's SSLRequest with 'S', speaks TLS with a self-signed
 * certificate (for 127.0.0.1, made by the openssl command at each run, into a temporary folder:
 * no key is ever committed) and passes the plain protocol on to the server.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

export interface TlsProxy {
  port: number;
  /** The certificate's file, for `sslrootcert`. */
  certPath: string;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;

export async function startTlsProxy(target: { host: string; port: number }): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-tls-'));
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(keyPath);
  const cert = readFileSync(certPath);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    client.once('close', () => sockets.delete(client));
    client.once('data', (first) => {
      if (first.length < 8 || first.readUInt32BE(4) !== SSL_REQUEST) return client.destroy();
      client.write('S');
      const secure = new tls.TLSSocket(client, { isServer: true, key, cert });
      const upstream = net.connect(target.port, target.host);
      sockets.add(upstream);
      secure.pipe(upstream).pipe(secure);
      const end = () => {
        secure.destroy();
        upstream.destroy();
      };
      for (const side of [secure, upstream]) side.on('error', end).on('close', end);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    certPath,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
