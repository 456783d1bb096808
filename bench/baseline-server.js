/**
 * The bench's yardstick: the least Node can do to answer an HTTP request here. A bare node:http
 * server that answers every request (any method, any path) with one prebuilt JSON buffer, a page
 * of 20 pets, after reading the request body. No routing, validation, database or logging.
 *
 *   node bench/baseline-server.js [PAGE_FILE]
 *
 * PAGE_FILE holds the body to answer (the bench passes a real `GET /v1/pets?limit=20` page of the
 * service); without it a similar page is made here. Listens on 127.0.0.1:$PORT (0: any free port)
 * and prints `listening on PORT` once ready; stops on SIGTERM or SIGINT.
 */
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import process from 'node:process';

const STATUSES = ['available', 'pending', 'sold'];
const body = process.argv[2]
  ? readFileSync(process.argv[2])
  : Buffer.from(
      JSON.stringify(
        Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Seed pet ${i + 1}`, categoryId: 1 + (i % 7), status: STATUSES[i % 3], version: 1 })),
      ),
    );
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((request, response) => {
  // Drain the body (POST, PATCH), as a real handler would, before answering.
  request.resume();
  request.once('end', () => {
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
