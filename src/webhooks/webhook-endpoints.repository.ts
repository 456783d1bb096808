/** SQL for the store's webhook endpoints. Every function takes the database (or a transaction) first. */
import { type Kysely, sql, type Updateable } from 'kysely';
import type { Database, NewWebhookEndpointRow, WebhookEndpointRow } from '../db/database.js';
import { forUpdate, isPostgres } from '../db/dialect.js';

/** The advisory lock (PostgreSQL) that makes "count, then add" one step: 'whep' in ASCII. */
const ENDPOINT_CREATION_LOCK = 0x77_68_65_70;

export async function insertWebhookEndpoint(db: Kysely<Database>, row: NewWebhookEndpointRow): Promise<WebhookEndpointRow> {
  return db.insertInto('webhookEndpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Inside a write transaction: waits until no other transaction is adding an endpoint, so a count
 * read next stays true until commit. On SQLite the write transaction already holds the file.
 */
export async function lockEndpointCreation(trx: Kysely<Database>): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${ENDPOINT_CREATION_LOCK})`.execute(trx);
}

export async function countWebhookEndpoints(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom('webhookEndpoints')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function findWebhookEndpointById(db: Kysely<Database>, id: number, options: { lock?: boolean } = {}): Promise<WebhookEndpointRow | undefined> {
  const select = db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id);
  return (options.lock ? forUpdate(db, select) : select).executeTakeFirst();
}

/**
 * Endpoints with an id above `afterId`, in ascending id order. Their ids come from a plain
 * sequence, not from transactions (unlike the pets' and orders'): an endpoint whose insert commits
 * while a client walks the pages may be passed. The store keeps at most WEBHOOK_ENDPOINTS_MAX of
 * them, which one page of the largest `limit` holds.
 */
export async function findWebhookEndpointsAfter(db: Kysely<Database>, query: { afterId: number; limit: number }): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhookEndpoints').selectAll().where('id', '>', query.afterId).orderBy('id').limit(query.limit).execute();
}

type EndpointChanges = Omit<Updateable<Database['webhookEndpoints']>, 'id' | 'createdAt' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;

/** `replaceSecret`: a new secret that alone signs from now on (the previous one, if any, ends at once). */
export async function updateWebhookEndpointRow(
  db: Kysely<Database>,
  id: number,
  changes: EndpointChanges,
  replaceSecret?: { secret: string },
): Promise<WebhookEndpointRow | undefined> {
  const secrets = replaceSecret ? { secret: replaceSecret.secret, previousSecret: null, previousSecretExpiresAt: null } : {};
  return db
    .updateTable('webhookEndpoints')
    .set({ ...changes, ...secrets })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Gives the endpoint a new secret in one statement: the current one becomes the previous one, which
 * signs until `previousExpiresAt` (SQL reads the row as it was before the update on both sides).
 */
export async function rotateWebhookEndpointSecretRow(
  db: Kysely<Database>,
  id: number,
  rotation: { secret: string; previousExpiresAt: number; updatedAt: number },
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhookEndpoints')
    .set({
      previousSecret: sql.ref('secret'),
      secret: rotation.secret,
      previousSecretExpiresAt: rotation.previousExpiresAt,
      updatedAt: rotation.updatedAt,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the endpoint; its deliveries and their attempts go with it (the foreign keys cascade). */
export async function deleteWebhookEndpointRow(db: Kysely<Database>, id: number): Promise<{ deleted: boolean }> {
  const result = await db.deleteFrom('webhookEndpoints').where('id', '=', id).executeTakeFirst();
  return { deleted: Number(result.numDeletedRows) > 0 };
}
