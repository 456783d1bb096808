/**
 * A process killed (SIGKILL) in the middle of a delivery loses nothing: the real service sends a
 * webhook to a receiver that holds the request open, is killed, and is started again; once the
 * claim's lease has ended (WEBHOOK_LEASE_SECONDS, short here) the restarted process sends the same
 * message again. The first attempt's outcome was never written (it died with the process), so the
 * delivery ends with one recorded attempt: the second, which succeeded.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { makeKey } from '../helpers/fleet.js';
import { spawnService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createEmptyDatabaseUrl, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil, withDeadline } from '../helpers/wait-for.js';
import { insertWebhookEndpoint, startWebhookReceiver } from '../helpers/webhook-endpoint-row.js';

/**
 * Long enough that the held attempt (timing out after half of it less a statement's time and a
 * second: 3 s) is still in flight when the process is killed; the statement timeout short enough
 * for such a lease (config.ts: at least 2 × (statement timeout + 2 s)).
 */
const LEASE_SECONDS = 10;
const STATEMENT_TIMEOUT_MS = 1000;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook delivery across a SIGKILL on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    it('killed while the receiver holds the request > sent again under the same webhook-id after the lease, by the restarted process', async () => {
      const place = await createEmptyDatabaseUrl(dialect);
      const receiver = await startWebhookReceiver(({ index }) => (index === 0 ? 'hold' : { status: 200 }));
      const env = {
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      };
      const handle = createDb(place.url, { poolMax: 1 });
      try {
        const first = await spawnService({ databaseUrl: place.url, env });
        const { key } = await makeKey(place.url, 'crash');
        const endpoint = await insertWebhookEndpoint(handle.db, { url: receiver.url, events: ['pet.created'] });
        const created = await fetch(`${first.baseUrl}/v1/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Survivor', categoryId: 1 }),
        });
        assert.equal(created.status, 201);
        const [held] = await withDeadline(receiver.waitFor(1), 15_000, 'the first attempt to arrive');
        first.process.kill('SIGKILL');
        assert.equal((await first.exited).signal, 'SIGKILL');
        const leased = await handle.db.selectFrom('webhookDeliveries').select(['state', 'attempts', 'leaseUntil']).executeTakeFirstOrThrow();
        assert.deepEqual([leased.state, leased.attempts], ['pending', 0], 'the killed process recorded nothing');
        assert.ok(leased.leaseUntil !== null);

        const second = await spawnService({ databaseUrl: place.url, env });
        try {
          const [, again] = await withDeadline(receiver.waitFor(2), 60_000, 'the message to be sent again after the lease');
          assert.equal(again!.headers['webhook-id'], held!.headers['webhook-id']);
          assert.equal(again!.body, held!.body);
          await waitUntil(
            async () =>
              (await handle.db.selectFrom('webhookDeliveries').select('state').where('endpointId', '=', endpoint.id).executeTakeFirst())?.state === 'succeeded',
            {
              deadlineMs: 15_000,
              what: 'the delivery to be recorded as succeeded',
            },
          );
          const delivery = await handle.db.selectFrom('webhookDeliveries').select(['attempts', 'leaseOwner']).executeTakeFirstOrThrow();
          assert.deepEqual(delivery, { attempts: 1, leaseOwner: null });
        } finally {
          assert.equal((await second.stop()).code, 0);
        }
      } finally {
        await handle.close();
        await receiver.close();
        await place.remove();
      }
    });
  });
}
