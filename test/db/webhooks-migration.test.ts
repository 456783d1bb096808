/**
 * Migration 2026-11-27T04-webhooks on a store the previous release left: a key that held every
 * scope of then gets the two webhook scopes, as a key made without --scope has every scope now; a
 * key with fewer keeps its own; `down` takes them back from the first only.
 * Then 2026-11-27T05-webhook-deliveries-age, which indexes deliveries by age for their purge, and
 * 2026-11-27T06-webhook-deliveries-endpoint-due, which indexes pending deliveries by endpoint for
 * the dispatcher's claims in place of the index of due deliveries of every endpoint.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateUpTo } from '../../src/db/migrate.js';
import * as webhooks from '../../src/db/migrations/2026-11-27T04-webhooks.js';
import * as deliveriesAge from '../../src/db/migrations/2026-11-27T05-webhook-deliveries-age.js';
import * as deliveriesEndpointDue from '../../src/db/migrations/2026-11-27T06-webhook-deliveries-endpoint-due.js';
import { insertApiKey } from '../../src/keys/keys.repository.js';
import { describeMigration } from '../helpers/test-db.js';

describeMigration('2026-11-27T04-webhooks', { poolMax: 1 }, (_dialect, empty) => {
  const keyWith = (name: string, scopes: string) =>
    insertApiKey(empty.db, {
      name,
      prefix: name.slice(0, 8).padEnd(8, '0'),
      secretHash: `hash-${name}`,
      createdAt: 1,
      expiresAt: null,
      revokedAt: null,
      scopes,
    });
  const scopesOf = async () =>
    Object.fromEntries((await empty.db.selectFrom('apiKeys').select(['name', 'scopes']).execute()).map((key) => [key.name, key.scopes]));

  it('keys of the previous release > those with all four scopes get webhooks:read and webhooks:write; the others keep theirs; down reverts', async () => {
    await migrateUpTo(empty.db, '2026-11-27T03-events-retention');
    await keyWith('everything', 'pets:read pets:write orders:read orders:write');
    await keyWith('reader', 'pets:read orders:read');
    await keyWith('petsonly', 'pets:read pets:write');
    assert.ok((await migrateUpTo(empty.db, '2026-11-27T04-webhooks')).includes('2026-11-27T04-webhooks'));
    const granted = {
      everything: 'pets:read pets:write orders:read orders:write webhooks:read webhooks:write',
      reader: 'pets:read orders:read',
      petsonly: 'pets:read pets:write',
    };
    assert.deepEqual(await scopesOf(), granted);

    await webhooks.down(empty.db);
    assert.deepEqual(await scopesOf(), { ...granted, everything: 'pets:read pets:write orders:read orders:write' });
    await webhooks.up(empty.db);
    assert.deepEqual(await scopesOf(), granted);
  });
});

describeMigration('2026-11-27T05-webhook-deliveries-age', { poolMax: 1 }, (_dialect, empty) => {
  it('on a store with deliveries > applies; down drops its index and up makes it again', async () => {
    await migrateUpTo(empty.db, '2026-11-27T04-webhooks');
    const { id } = await empty.db
      .insertInto('webhookEndpoints')
      .values({
        url: 'https://hooks.example.com/',
        events: '["pet.*"]',
        allowedTypes: '["pet.created"]',
        status: 'enabled',
        secret: 'whsec_x',
        createdAt: 1,
        updatedAt: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await empty.db
      .insertInto('webhookDeliveries')
      .values({ endpointId: id, messageId: 'evt_1', eventType: 'pet.created', payload: '{}', state: 'succeeded', attempts: 1, createdAt: 1 })
      .execute();
    assert.ok((await migrateUpTo(empty.db, '2026-11-27T05-webhook-deliveries-age')).includes('2026-11-27T05-webhook-deliveries-age'));
    await deliveriesAge.down(empty.db);
    await deliveriesAge.up(empty.db);
    assert.equal((await empty.db.selectFrom('webhookDeliveries').select('id').where('createdAt', '<', 2).execute()).length, 1);
  });
});

describeMigration('2026-11-27T06-webhook-deliveries-endpoint-due', { poolMax: 1 }, (dialect, empty) => {
  const indexes = async () => {
    const names =
      dialect === 'sqlite'
        ? sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'webhook_deliveries' and name like 'webhook_deliveries_%due_idx'`
        : sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'webhook_deliveries' and indexname like 'webhook_deliveries_%due_idx'`;
    return (await names.execute(empty.db)).rows.map((row) => row.name).sort();
  };

  it('on a store with pending deliveries > indexes them by endpoint in place of the due index; down reverts, up again', async () => {
    await migrateUpTo(empty.db, '2026-11-27T05-webhook-deliveries-age');
    const { id } = await empty.db
      .insertInto('webhookEndpoints')
      .values({
        url: 'https://hooks.example.com/',
        events: '["pet.*"]',
        allowedTypes: '["pet.created"]',
        status: 'enabled',
        secret: 'whsec_x',
        createdAt: 1,
        updatedAt: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await empty.db
      .insertInto('webhookDeliveries')
      .values({ endpointId: id, messageId: 'evt_1', eventType: 'pet.created', payload: '{}', state: 'pending', attempts: 0, nextAttemptAt: 5, createdAt: 1 })
      .execute();
    assert.deepEqual(await indexes(), ['webhook_deliveries_due_idx']);
    assert.ok((await migrateUpTo(empty.db, '2026-11-27T06-webhook-deliveries-endpoint-due')).includes('2026-11-27T06-webhook-deliveries-endpoint-due'));
    assert.deepEqual(await indexes(), ['webhook_deliveries_endpoint_due_idx']);
    await deliveriesEndpointDue.down(empty.db);
    assert.deepEqual(await indexes(), ['webhook_deliveries_due_idx']);
    await deliveriesEndpointDue.up(empty.db);
    assert.deepEqual(await indexes(), ['webhook_deliveries_endpoint_due_idx']);
    assert.equal(
      (
        await empty.db
          .selectFrom('webhookDeliveries')
          .select('id')
          .where('endpointId', '=', id)
          .where('state', '=', 'pending')
          .where('nextAttemptAt', '<=', 5)
          .execute()
      ).length,
      1,
    );
  });
});
