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
    const deleted = await singleWrite(db, (trx) =>
      trx
        .deleteFrom('webhookDeliveries')
        .where(
          'id',
          'in',
          trx
            .selectFrom('webhookDeliveries')
            .select('id')
            .where('createdAt', '<', cutoff)
            // A pending one whose endpoint is disabled is sent by nobody: it goes too.
            .where((eb) => eb.or([eb('state', '!=', 'pending'), eb.not(eb.exists(eb.selectFrom('webhookEndpoints').select('id').whereRef('webhookEndpoints.id', '=', 'webhookDeliveries.endpointId').where('status', '=', 'enabled')))]))
            .orderBy('id')
            .limit(batchSize),
        )
        .executeTakeFirst(),
    );
    purged += Number(deleted.numDeletedRows);
    if (Number(deleted.numDeletedRows) < batchSize) break;
  }
  return purged;
}
