/**
 * The console at /console/: the browser app Vite built into dist/console/static/ (console/ holds its
 * source), served by the service itself, outside /v1 and without a key (the page is public; its
 * calls to the API carry the key). Read into memory once at start (a few files, about 60 KB), gzip
 * included. Every view's address gets index.html, so a reload stays on its view; a file name with
 * its content's hash (assets/) may be kept by browsers for ever; a missing file is a 404 in the
 * Error shape. Every answer carries the strict Content-Security-Policy of console-headers.ts.
 * Hidden from openapi.json: it is a page, not an API operation.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { CONSOLE_HEADERS } from './console-headers.js';

/** Where `npm run build` puts the console: beside this module once compiled (dist/console/), found from src/ too. */
const CONSOLE_FILES = fileURLToPath(new URL('../../dist/console/static/', import.meta.url));

const CONSOLE_PATH = '/console';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

interface ConsoleFile {
  type: string;
  body: Buffer;
  /** The gzip of `body`, when it is text worth compressing. */
  gzip: Buffer | undefined;
  cacheControl: string;
}

/** Every file of the built console by its path under /console/ (`assets/index-1a2b3c.js`). */
function readConsoleFiles(folder: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      // Regular files only: a symbolic link left in the build (to /etc, to a secret) is never followed.
      if (!entry.isFile()) continue;
      const name = relative(folder, path).split('\\').join('/');
      const type = TYPES[extname(name)] ?? 'application/octet-stream';
      const body = readFileSync(path);
      const compressible = /^(text\/|application\/json|image\/svg)/.test(type) && body.length > 512;
      files.set(name, {
        type,
        body,
        gzip: compressible ? gzipSync(body, { level: 9 }) : undefined,
        // Vite names what it emits under assets/ by content hash: a new build is a new name.
        cacheControl: name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
    }
  };
  walk(folder);
  return files;
}

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile): FastifyReply {
  reply.header('content-type', file.type).header('cache-control', file.cacheControl);
  if (file.gzip) {
    reply.header('vary', 'accept-encoding');
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(file.gzip);
  }
  return reply.send(file.body);
}

/** An address that names a file (`assets/…`, or a last segment with a dot) rather than a view. */
function namesAFile(path: string): boolean {
  return path.startsWith('assets/') || /\.[A-Za-z0-9]+$/.test(path);
}

function underConsole(url: string): boolean {
  return url === CONSOLE_PATH || url.startsWith(`${CONSOLE_PATH}/`) || url.startsWith(`${CONSOLE_PATH}?`);
}

export async function consoleRoutes(app: FastifyInstance, options: { folder?: string } = {}): Promise<void> {
  const folder = options.folder ?? CONSOLE_FILES;
  const files = existsSync(join(folder, 'index.html')) ? readConsoleFiles(folder) : undefined;
  if (!files) app.log.warn({ folder }, 'the console is not built (npm run build builds it): /console answers 404');

  // On every answer under /console, refusals of other methods (405, answered outside this plugin) included.
  app.addHook('onRequest', (request, reply, done) => {
    if (underConsole(request.url)) reply.headers(CONSOLE_HEADERS);
    done();
  });

  app.get(CONSOLE_PATH, { schema: { hide: true } }, (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(`${CONSOLE_PATH}/${query === -1 ? '' : request.url.slice(query)}`, 301);
  });

  app.get(`${CONSOLE_PATH}/*`, { schema: { hide: true } }, (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (!files) throw new AppError('route_not_found', 'the console is not built on this server: `npm run build` builds it into dist/console/static');
    const file = files.get(path);
    if (file && path !== 'index.html') return send(request, reply, file);
    if (namesAFile(path)) throw new AppError('route_not_found', `the console has no file ${CONSOLE_PATH}/${path}`);
    // A view's address (/console/, /console/animals/42): the page, whose router shows that view.
    return send(request, reply, files.get('index.html')!);
  });
}

// Its onRequest hook reaches the whole app, so the 405s of the app's not-found handler under /console carry the console's headers too.
(consoleRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
