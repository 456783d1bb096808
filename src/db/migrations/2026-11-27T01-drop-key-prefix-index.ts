/**
 * Frozen in time: imports nothing from the application and speaks to the database as
 * `Kysely<any>`. Drops `api_keys_usable_prefix_idx` (2026-11-26T00-key-prefix-index), which
 * nothing reads any more: the service no longer keeps the usable keys' display prefixes, but the
 * SHA-256 hashes of the usable keys (keys/usable-keys.ts), read by a query the index does not
 * cover. The index only cost every key's insert, revocation and last-use write an update of it.
 * `down` makes it again as that migration did.
 */
import { type Kysely, sql } from 'kysely';

const INDEX = 'api_keys_usable_prefix_idx';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(INDEX).ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(INDEX).ifNotExists().on('api_keys').columns(['prefix', 'expires_at']).where(sql.ref('revoked_at'), 'is', null).execute();
}
