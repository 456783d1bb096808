/**
 * Frozen in time (imports nothing from the application).
 *
 * Each process keeps the display prefixes of the usable keys in memory, so a token whose prefix
 * no usable key has is refused without a lookup of its own. That set is read with
 * `select distinct prefix … where revoked_at is null and (expires_at is null or expires_at > ?)`
 * at most once a second per process; this partial index holds only the keys not revoked, in
 * prefix order, so that read skips revoked keys and finds the distinct prefixes in order.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('api_keys_usable_prefix_idx').on('api_keys').columns(['prefix', 'expires_at']).where(sql.ref('revoked_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_usable_prefix_idx').execute();
}
