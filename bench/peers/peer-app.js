/**
 * The Fastify app both peers share (bench/peers/fastify-postgres.js, bench/peers/fastify-sqlite.js):
 * what a developer writes on a first day with Fastify 5 to serve the same two reads as ours, so the
 * bench can say what our service costs beside a naive server on the same database.
 *
 * Naive on purpose, and kept that way: it changes only to follow Fastify or the drivers, never to
 * catch up with the service. It has `logger: false`, one static bearer check in an `onRequest`
 * hook (401 otherwise), and the service's querystring schema for GET /v1/pets (`limit`, an integer
 * from 1 to 100, 20 by default: src/pagination/page-size.ts) and response schema (Pet: id, name,
 * categoryId, status; ids are int64 integers). The bodies of its 200 answers are those of the
 * service, field for field (the service's Pet has these four fields too; a pet's version shows only
 * in getPet's ETag). What the service does besides, and the peer does not: API keys hashed and
 * looked up (scopes, expiry, revocation), a per-key rate limit with its `ratelimit` headers, a
 * request id, one access log line per request, metrics, strict query checks (unknown parameters
 * refused), filters, a `Link` to the next page with a signed cursor, an `ETag` and the deprecation
 * headers on getPet,
 * `cache-control` and `x-content-type-options`, and its error bodies from one closed list.
 */
import process from 'node:process';
import Fastify from 'fastify';

const PET = {
  type: 'object',
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string' },
    categoryId: { type: 'integer', format: 'int64' },
    status: { type: 'string', enum: ['available', 'pending', 'sold'] },
  },
  required: ['id', 'name', 'categoryId', 'status'],
};

/**
 * `listPets(limit)` answers the first `limit` pets by id, `getPet(id)` one pet or undefined; both
 * may answer a value or a promise of one.
 */
export function buildPeerApp({ apiKey, listPets, getPet }) {
  const app = Fastify({ logger: false });
  const authorization = `Bearer ${apiKey}`;

  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.authorization === authorization) return done();
    reply.code(401).send({ code: 'unauthorized', message: 'a valid bearer key is required', status: 401 });
  });

  app.get(
    '/v1/pets',
    {
      schema: {
        querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } } },
        response: { 200: { type: 'array', items: PET } },
      },
    },
    async (request) => listPets(request.query.limit),
  );

  app.get(
    '/v1/pets/:petId',
    {
      schema: {
        params: { type: 'object', properties: { petId: { type: 'integer', minimum: 1 } }, required: ['petId'] },
        response: { 200: PET },
      },
    },
    async (request, reply) => {
      const pet = await getPet(request.params.petId);
      if (pet === undefined) return reply.code(404).send({ code: 'pet_not_found', message: `no pet has id ${request.params.petId}`, status: 404 });
      return pet;
    },
  );

  return app;
}

/**
 * Listens on 127.0.0.1:$PORT (0: any free port), prints `listening on PORT` once ready (the bench
 * waits for it, as for bench/baseline-server.js), and closes the app on SIGTERM or SIGINT.
 */
export async function serve(app) {
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
  process.stdout.write(`listening on ${app.server.address().port}\n`);
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

/** A required setting of the environment (the bench sets them all). */
export function setting(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
