/**
 * The SQLite peer: Fastify 5 (bench/peers/peer-app.js) on better-sqlite3, the database in WAL
 * mode, each read one statement prepared once at start. What it leaves out, compared with the
 * service, is listed in peer-app.js.
 *
 *   DATABASE_URL=sqlite:/path/to/file.db PEER_API_KEY=… PORT=0 node bench/peers/fastify-sqlite.js
 *
 * DATABASE_URL is the service's own (`sqlite:` and a file path), so the peer reads the same file.
 */
import Database from 'better-sqlite3';
import { buildPeerApp, serve, setting } from './peer-app.js';

const db = new Database(setting('DATABASE_URL').replace(/^sqlite:/, ''));
db.pragma('journal_mode = WAL');
const listPets = db.prepare('SELECT id, name, category_id AS "categoryId", status FROM pets ORDER BY id LIMIT ?');
const getPet = db.prepare('SELECT id, name, category_id AS "categoryId", status FROM pets WHERE id = ?');

const app = buildPeerApp({
  apiKey: setting('PEER_API_KEY'),
  listPets: (limit) => listPets.all(limit),
  getPet: (id) => getPet.get(id),
});
app.addHook('onClose', async () => db.close());
await serve(app);
