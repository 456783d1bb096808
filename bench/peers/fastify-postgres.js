/**
 * The PostgreSQL peer: Fastify 5 (bench/peers/peer-app.js) on a `pg` Pool of DATABASE_POOL_MAX
 * connections (the service's setting, passed by the bench with the service's value), each read one
 * named statement, so pg prepares it once per connection. What it leaves out, compared with the
 * service, is listed in peer-app.js.
 *
 *   DATABASE_URL=postgres://… DATABASE_POOL_MAX=10 PEER_API_KEY=… PORT=0 node bench/peers/fastify-postgres.js
 *
 * DATABASE_URL is the service's own, `options=-c search_path=<schema>` included, so the peer reads
 * the schema the service uses; the bench gives the peer its own `application_name`, so the CPU of
 * its backends is counted apart from the service's.
 */
import pg from 'pg';
import { buildPeerApp, serve, setting } from './peer-app.js';

const LIST_PETS = 'SELECT id, name, category_id AS "categoryId", status FROM pets ORDER BY id LIMIT $1';
const GET_PET = 'SELECT id, name, category_id AS "categoryId", status FROM pets WHERE id = $1';

const pool = new pg.Pool({
  connectionString: setting('DATABASE_URL'),
  max: Number(setting('DATABASE_POOL_MAX')),
  // Kept open between the bench's runs, as the service keeps its own, so no run measures connecting.
  idleTimeoutMillis: 0,
});

const app = buildPeerApp({
  apiKey: setting('PEER_API_KEY'),
  // Ids and category ids are int8, which pg answers as strings; the response schema writes them as integers.
  listPets: async (limit) => (await pool.query({ name: 'list-pets', text: LIST_PETS, values: [limit] })).rows,
  getPet: async (id) => (await pool.query({ name: 'get-pet', text: GET_PET, values: [id] })).rows[0],
});
app.addHook('onClose', () => pool.end());
await serve(app);
