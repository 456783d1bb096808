/**
 * Two instances of the service on one database, both dispatching: every delivery is fanned out
 * once and sent once (each attempt claimed by one instance), a hundred events to one receiver that
 * answers 200. PostgreSQL: two apps, two pools (SKIP LOCKED claims); SQLite: two apps, two
 * connections to one file (claims take turns on the write lock).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { createTestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';
import { insertWebhookEndpoint, startWebhookReceiver } from '../helpers/webhook-endpoint-row.js';

const EVENTS = 100;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `webhook dispatch by two instances on ${dialect}`, {}, () => {
    it(`${EVENTS} events > each delivered exactly once, by one attempt`, async () => {
      const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE: '0,0,0', LOG_LEVEL: 'warn' };
      const hooks = { webhookDispatcher: { pollMs: 5 } };
      const first = await createTestApp(dialect, { env, hooks });
      const secondHandle = createDb(first.database.url, { poolMax: 5, statementTimeoutMs: 5000 });
      const second = await buildApp({ db: secondHandle.db, database: secondHandle, config: loadConfig(env), ...hooks });
      const receiver = await startWebhookReceiver(() => ({ status: 200 }));
      try {
        await second.ready();
        const endpoint = await insertWebhookEndpoint(first.database.db, { url: receiver.url, events: ['pet.created'] });
        const apps = [first.app, second];
        await Promise.all(
          Array.from({ length: EVENTS }, (_, i) =>
            apps[i % 2]!.inject({
              method: 'POST',
              url: '/v1/pets',
              headers: { ...first.auth, 'content-type': 'application/json' },
              payload: { name: `Pet ${i}`, categoryId: 1 },
            }).then((response) => {
              assert.equal(response.statusCode, 201, response.body);
            }),
          ),
        );
        const db = first.database.db;
        await waitUntil(async () => (await db.selectFrom('webhookDeliveries').select('id').where('state', '=', 'succeeded').execute()).length === EVENTS, {
          deadlineMs: 30_000,
          what: `${EVENTS} deliveries to succeed`,
        });
        const deliveries = await db.selectFrom('webhookDeliveries').select(['messageId', 'attempts', 'endpointId']).execute();
        assert.equal(deliveries.length, EVENTS, 'one delivery per event: fanned out once');
        assert.ok(deliveries.every((d) => d.attempts === 1 && d.endpointId === endpoint.id));
        const arrivals = new Map<string, number>();
        for (const message of receiver.received)
          arrivals.set(String(message.headers['webhook-id']), (arrivals.get(String(message.headers['webhook-id'])) ?? 0) + 1);
        assert.equal(receiver.received.length, EVENTS, 'no attempt sent twice');
        assert.deepEqual([...arrivals.keys()].sort(), deliveries.map((d) => d.messageId).sort());
        assert.equal((await db.selectFrom('webhookAttempts').select('id').execute()).length, EVENTS);
      } finally {
        await second.close();
        await secondHandle.close();
        await first.close();
        await receiver.close();
      }
    });
  });
}
