/**
 * Runs the migrations. Kysely's Migrator takes a lock (an advisory lock on PostgreSQL), so
 * several instances starting at once apply each migration exactly once.
 */
import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely';
import { withDb } from './create-db.js';
import { currentSchemaOf } from './dialect.js';
import * as initial from './migrations/2026-11-25T00-initial.js';
import * as keyPrefixIndex from './migrations/2026-11-26T00-key-prefix-index.js';
import * as keyScopes from './migrations/2026-11-26T01-key-scopes.js';
import * as petVersions from './migrations/2026-11-26T02-pet-versions.js';
import * as petSearch from './migrations/2026-11-26T03-pet-search.js';
import * as serviceSecrets from './migrations/2026-11-26T04-service-secrets.js';
import * as orders from './migrations/2026-11-26T05-orders.js';
import * as idempotencyKeys from './migrations/2026-11-26T06-idempotency-keys.js';
import * as keyLastUsed from './migrations/2026-11-26T07-key-last-used.js';
import * as idsFromTransactions from './migrations/2026-11-26T08-ids-from-transactions.js';
import * as fullCaseFolding from './migrations/2026-11-27T00-full-case-folding.js';
import * as dropKeyPrefixIndex from './migrations/2026-11-27T01-drop-key-prefix-index.js';
import * as events from './migrations/2026-11-27T02-events.js';
import * as eventsRetention from './migrations/2026-11-27T03-events-retention.js';
import * as webhooks from './migrations/2026-11-27T04-webhooks.js';
import * as webhookDeliveriesAge from './migrations/2026-11-27T05-webhook-deliveries-age.js';
import * as webhookDeliveriesEndpointDue from './migrations/2026-11-27T06-webhook-deliveries-endpoint-due.js';
import * as plainIdsAndPositions from './migrations/2026-11-28T00-plain-ids-and-positions.js';

// Listed by hand rather than read from a folder, so the compiled package needs no file-system lookup.
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-25T00-initial': initial,
  '2026-11-26T00-key-prefix-index': keyPrefixIndex,
  '2026-11-26T01-key-scopes': keyScopes,
  '2026-11-26T02-pet-versions': petVersions,
  '2026-11-26T03-pet-search': petSearch,
  '2026-11-26T04-service-secrets': serviceSecrets,
  '2026-11-26T05-orders': orders,
  '2026-11-26T06-idempotency-keys': idempotencyKeys,
  '2026-11-26T07-key-last-used': keyLastUsed,
  '2026-11-26T08-ids-from-transactions': idsFromTransactions,
  '2026-11-27T00-full-case-folding': fullCaseFolding,
  '2026-11-27T01-drop-key-prefix-index': dropKeyPrefixIndex,
  '2026-11-27T02-events': events,
  '2026-11-27T03-events-retention': eventsRetention,
  '2026-11-27T04-webhooks': webhooks,
  '2026-11-27T05-webhook-deliveries-age': webhookDeliveriesAge,
  '2026-11-27T06-webhook-deliveries-endpoint-due': webhookDeliveriesEndpointDue,
  '2026-11-28T00-plain-ids-and-positions': plainIdsAndPositions,
};

/** Every migration this release knows: a store that applied another comes from a newer release. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/**
 * Brings the store at `url` to the latest migration, on a connection of its own whose statements
 * have no time limit (on PostgreSQL; the wait for the connection keeps `statementTimeoutMs`): a
 * migration may work for minutes on a large store (numbering a million events takes about 30 s),
 * and an instance that starts while another migrates waits for it on Kysely's lock. What `serve`,
 * `migrate` and the key commands run first.
 */
export async function migrateStore(url: string, statementTimeoutMs: number): Promise<string[]> {
  return withDb(url, statementTimeoutMs, migrateToLatest, { unlimitedStatements: true });
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Applies the migrations up to and including `name` only: how a test makes an older schema. */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<string[]> {
  if (!(name in MIGRATIONS)) throw new Error(`no migration is named ${name}`);
  return migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Kysely<any>, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  const migrationTableSchema = await currentSchemaOf(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const result: MigrationResultSet = await run(migrator);
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? '(unknown)'} failed: ${describeError(result.error)}`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Kysely hands over whatever the migration threw: an Error as `Error: message`, anything else as JSON. */
function describeError(error: unknown): string {
  return error instanceof Error ? String(error) : JSON.stringify(error);
}
