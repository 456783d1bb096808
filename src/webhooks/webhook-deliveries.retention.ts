/**
 * Retention of webhook deliveries: those created more than EVENT_RETENTION_DAYS ago that are no
 * longer pending go, with their attempts (the foreign key cascades), in short batches, by the
 * dispatcher of every process once a minute (webhook-dispatcher.ts). A pending one stays until it
 * succeeds or fails, whatever its age (a schedule lasts days at most), unless its endpoint is
 * disabled (nobody sends it then).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { singleWrite } from '../db/dialect.js';

const PURGE_BATCH_SIZE = 500;
const PURGE_MAX_BATCHES = 100;

export interface DeliveryPurgeOptions {
  batchSize?: number;
  /** Asked before each batch: a purge whose process is closing ends between batches. */
  stopping?: () => boolean;
}

/** Deletes the settled deliveries created before `cutoff` (epoch ms); answers how many. */
export async function purgeOldDeliveries(db: Kysely<Database>, cutoff: number, options: DeliveryPurgeOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE;
  let purged = 0;
  for (let batch = 0; batch < PURGE_MAX_BATCHES && !options.stopping?.(); batch++) {
    const found = await singleWrite(db, async (trx) => {
      const ids = (await selectOldDeliveriesBatch(trx, cutoff, batchSize).execute()).map((row) => row.id);
      if (ids.length > 0) purged += Number((await deleteDeliveriesById(trx, ids).executeTakeFirst()).numDeletedRows);
      return ids.length;
    });
    if (found < batchSize) break;
  }
  return purged;
}

/**
 * The purge's two statements, each seeking its rows in an index so that a run reads the old
 * deliveries only, never the whole table (test/webhooks/deliveries.query-plan.test.ts): the oldest
 * `batchSize` deliveries created before `cutoff` that may go, from the (created_at, id) index
 * (migration 2026-11-27T05-webhook-deliveries-age); then those, by primary key. One statement with
 * `id in (subquery)` had PostgreSQL hash-join the subquery with a scan of the whole table.
 */
export function selectOldDeliveriesBatch(db: Kysely<Database>, cutoff: number, batchSize: number) {
  return (
    db
      .selectFrom('webhookDeliveries')
      .select('id')
      .where('createdAt', '<', cutoff)
      // A pending one whose endpoint is disabled is sent by nobody: it goes too.
      .where((eb) =>
        eb.or([
          eb('state', '!=', 'pending'),
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhookEndpoints')
                .select('id')
                .whereRef('webhookEndpoints.id', '=', 'webhookDeliveries.endpointId')
                .where('status', '=', 'enabled'),
            ),
          ),
        ]),
      )
      .orderBy('createdAt')
      .orderBy('id')
      .limit(batchSize)
  );
}

export function deleteDeliveriesById(db: Kysely<Database>, ids: readonly number[]) {
  return db.deleteFrom('webhookDeliveries').where('id', 'in', ids);
}
