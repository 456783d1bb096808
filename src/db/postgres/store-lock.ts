/**
 * Who is using a PostgreSQL store, told by an advisory lock, as an open file tells it on SQLite
 * (db/sqlite/exclusive-open.ts). Every serving process holds the store's lock shared, on a connection
 * of its own, for as long as it serves; `import` takes it exclusively for its transaction and
 * refuses when it cannot. The lock is the store's schema's: several stores (schemas) of one
 * database do not see each other's.
 */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';
import { postgresConfigOf } from './url.js';

/** The lock's first key, 'asto' in ASCII; the second is taken from the schema's name. */
const STORE_LOCK_CLASS = 0x6173746f;
const SCHEMA_KEY = `('x' || left(md5(current_schema()), 8))::bit(32)::int`;
/** How soon a lost lock connection is opened again. */
const RETRY_MS = 5000;

/** Inside a transaction: takes the store's lock exclusively until it ends, or answers false when a service holds it. */
export async function lockStoreExclusively(trx: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${sql.raw(String(STORE_LOCK_CLASS))}, ${sql.raw(SCHEMA_KEY)}) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

class StoreBeingImported extends Error {}

/**
 * Holds the store's lock shared until `release`. Throws StoreBeingImported when an import holds
 * it. A lost connection (a restart of the server) is told to `warn` and opened again every few
 * seconds; meanwhile an import would not see this process.
 */
export async function holdStoreShared(url: string, warn: (message: string, error?: unknown) => void): Promise<{ release: () => Promise<void> }> {
  let client: pg.Client | undefined;
  let released = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ ...postgresConfigOf(url), keepAlive: true });
    next.on('error', () => {});
    await next.connect();
    const { rows } = await next.query<{ locked: boolean }>(`select pg_try_advisory_lock_shared(${STORE_LOCK_CLASS}, ${SCHEMA_KEY}) as locked`);
    if (rows[0]?.locked !== true) {
      await next.end();
      throw new StoreBeingImported('an import is loading this store: start the service once it has ended');
    }
    next.on('end', () => {
      if (released) return;
      warn('lost the connection that tells imports this store is in use; opening it again');
      retry = setTimeout(reconnect, RETRY_MS).unref();
    });
    client = next;
  };
  const reconnect = (): void => {
    connect().catch((error: unknown) => {
      if (released) return;
      warn('cannot open the connection that tells imports this store is in use; trying again', error);
      retry = setTimeout(reconnect, RETRY_MS).unref();
    });
  };
  await connect();
  return {
    async release() {
      released = true;
      clearTimeout(retry);
      // Unlocked before the goodbye: a backend ends a moment after its client leaves, and an
      // import started at once by whoever stopped the service would find the lock still held.
      await client?.query(`select pg_advisory_unlock_shared(${STORE_LOCK_CLASS}, ${SCHEMA_KEY})`).catch(() => {});
      await client?.end().catch(() => {});
    },
  };
}
