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
/** How soon a lock connection that could not be opened is tried again (a lost one is reopened at once). */
const RETRY_MS = 1000;
/** TCP keepalive's first probe: a lock connection to a vanished server is noticed in seconds, not hours. */
const KEEPALIVE_DELAY_MS = 10_000;

/** Inside a transaction: takes the store's lock exclusively until it ends, or answers false when a service holds it. */
export async function lockStoreExclusively(trx: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${sql.raw(String(STORE_LOCK_CLASS))}, ${sql.raw(SCHEMA_KEY)}) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

class StoreBeingImported extends Error {}

export interface StoreLockOptions {
  /** The longest wait to open the lock connection (the pool's connect budget). */
  connectMs: number;
  warn: (message: string, error?: unknown) => void;
  /**
   * The lock was lost (its connection dropped) and an import holds it now: the store is being
   * replaced under this process, whose caches (the cursor key, the usable keys) would be stale.
   * The caller stops serving.
   */
  replaced: (error: Error) => void;
}

/**
 * Holds the store's lock shared until `release`. Throws StoreBeingImported when an import holds
 * it. A lost connection (a restart of the server) is opened again at once, then every second while
 * that fails; meanwhile an import would not see this process, and if one has taken the lock by
 * the time it is open again, `replaced` is called.
 */
export async function holdStoreShared(url: string, options: StoreLockOptions): Promise<{ release: () => Promise<void> }> {
  let client: pg.Client | undefined;
  let released = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      ...postgresConfigOf(url),
      connectionTimeoutMillis: options.connectMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    });
    next.on('error', () => {});
    await next.connect();
    const { rows } = await next.query<{ locked: boolean }>(`select pg_try_advisory_lock_shared(${STORE_LOCK_CLASS}, ${SCHEMA_KEY}) as locked`);
    if (rows[0]?.locked !== true) {
      await next.end();
      throw new StoreBeingImported('an import is loading this store: start the service once it has ended');
    }
    next.on('end', () => {
      if (released) return;
      options.warn('lost the connection that tells imports this store is in use; opening it again');
      reconnect();
    });
    client = next;
  };
  const reconnect = (): void => {
    connect().then(
      () => {
        if (!released) options.warn('holds the store lock again: imports see this process');
      },
      (error: unknown) => {
        if (released) return;
        if (error instanceof StoreBeingImported) return options.replaced(error);
        options.warn('cannot open the connection that tells imports this store is in use; trying again', error);
        retry = setTimeout(reconnect, RETRY_MS).unref();
      },
    );
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
