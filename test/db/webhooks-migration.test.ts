/**
 * Migration 2026-11-27T04-webhooks on a store the previous release left: a key that held every
 * scope of then gets the two webhook scopes, as a key made without --scope has every scope now; a
 * key with fewer keeps its own; `down` takes them back from the first only.
 * Then 2026-11-27T05-webhook-deliveries-age, which indexes deliveries by age for their purge.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import * as webhooks from '../../src/db/migrations/2026-11-27T04-webhooks.js';
import * as deliveriesAge from '../../src/db/migrations/2026-11-27T05-webhook-deliveries-age.js';
import { insertApiKey } from '../../src/keys/keys.repository.js';
import { describeMigration } from '../helpers/test-db.js';

describeMigration('2026-11-27T04-webhooks', { poolMax: 1 }, (_dialect, empty) => {
  const keyWith = (name: string, scopes: string) =>
    insertApiKey(empty.db, { name, prefix: name.slice(0, 8).padEnd(8, '0'), secretHash: `hash-${name}`, createdAt: 1, expiresAt: null, revokedAt: null, scopes });
  const scopesOf = async () => Object.fromEntries((await empty.db.selectFrom('apiKeys').select(['name', 'scopes']).execute()).map((key) => [key.name, key.scopes]));

  it('keys of the previous release > those with all four scopes get webhooks:read and webhooks:write; the others keep theirs; down reverts', async () => {
    await migrateUpTo(empty.db, '2026-11-27T03-events-retention');
    await keyWith('everything', 'pets:read pets:write orders:read orders:write');
    await keyWith('reader', 'pets:read orders:read');
    await keyWith('petsonly', 'pets:read pets:write');
    assert.ok((await migrateToLatest(empty.db)).includes('2026-11-27T04-webhooks'));
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
      .values({ url: 'https://hooks.example.com/', events: '["pet.*"]', allowedTypes: '["pet.created"]', status: 'enabled', secret: 'whsec_x', createdAt: 1, updatedAt: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await empty.db.insertInto('webhookDeliveries').values({ endpointId: id, messageId: 'evt_1', eventType: 'pet.created', payload: '{}', state: 'succeeded', attempts: 1, createdAt: 1 }).execute();
    assert.ok((await migrateToLatest(empty.db)).includes('2026-11-27T05-webhook-deliveries-age'));
    await deliveriesAge.down(empty.db);
    await deliveriesAge.up(empty.db);
    assert.equal((await empty.db.selectFrom('webhookDeliveries').select('id').where('createdAt', '<', 2).execute()).length, 1);
  });
});
