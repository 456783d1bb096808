/**
 * The setup the webhook dispatcher's component suites share, once per dialect: a fresh app whose
 * dispatcher polls every 20 ms and may send to receivers on 127.0.0.1, real receivers started by
 * the test and closed after it, and each test's endpoints removed after it (their deliveries with
 * them), so the next test's events reach only its own receivers.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, type TestOptions } from 'node:test';
import type { DialectName } from '../../src/db/database-url.js';
import { createTestApp, type TestApp } from './test-app.js';
import { ALL_DIALECTS, describeOnDialect } from './test-db.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-endpoint-row.js';

export interface WebhookSuite {
  /** The suite's app; read it inside a test or hook, once the suite has started. */
  readonly t: TestApp;
  /** A real receiver on 127.0.0.1, closed after the test. */
  receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver>;
  /** Adds a pet through the API (which records its `pet.created` event) and answers its id. */
  createPet(name: string): Promise<number>;
}

/**
 * Describes `title(dialect)` on every dialect (PostgreSQL skipped without TEST_DATABASE_URL), with
 * the app built from `env` added to `WEBHOOK_ALLOWED_HOSTS=127.0.0.1`.
 */
export function describeWebhookSuite(
  title: (dialect: DialectName) => string,
  options: { env?: Record<string, string>; suite?: TestOptions },
  body: (suite: WebhookSuite, dialect: DialectName) => void,
): void {
  for (const dialect of ALL_DIALECTS) {
    describeOnDialect(dialect, title(dialect), options.suite ?? {}, () => {
      let app: TestApp | undefined;
      const receivers: WebhookReceiver[] = [];
      before(async () => {
        app = await createTestApp(dialect, {
          env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ...options.env },
          hooks: { webhookDispatcher: { pollMs: 20 } },
        });
      });
      afterEach(async () => {
        await suite.t.database.db.deleteFrom('webhookEndpoints').execute();
        for (const receiver of receivers.splice(0)) await receiver.close();
      });
      after(() => app?.close());

      const suite: WebhookSuite = {
        get t() {
          if (!app) throw new Error('the webhook suite’s app is read inside a test, once the suite has started');
          return app;
        },
        async receiver(...args) {
          const started = await startWebhookReceiver(...args);
          receivers.push(started);
          return started;
        },
        async createPet(name) {
          const response = await suite.t.app.inject({
            method: 'POST',
            url: '/v1/pets',
            headers: { ...suite.t.auth, 'content-type': 'application/json' },
            payload: { name, categoryId: 3 },
          });
          assert.equal(response.statusCode, 201, response.body);
          return (response.json() as { id: number }).id;
        },
      };
      body(suite, dialect);
    });
  }
}
