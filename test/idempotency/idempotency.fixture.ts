/**
 * What the Idempotency-Key suites share: an app per suite whose requests a test can hold or fail once they reserved their key, and helpers to send them.
 * `idempotencySuite(dialect, onReady)` registers the suite's hooks (a fresh app on a fresh database) and
 * answers the helpers its tests share; `onReady` receives the app once it runs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { DialectName } from '../../src/db/database-url.js';

export const HOUR = 3_600_000;

/** A promise and the function that settles it: how a test holds a request at a point and lets it go. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

export function idempotencySuite(dialect: DialectName, onReady: (ready: { t: TestApp }) => void) {
  let t: TestApp;
  /** Requests whose key (the Idempotency-Key) is listed here wait, once reserved, until the gate opens. */
  const held = new Map<string, { reserved: () => void; gate: ReturnType<typeof gate> }>();
  /** Requests whose key is listed here fail with a 500 once they reserved it. */
  const failing = new Set<string>();
  before(async () => {
    t = await createTestApp(dialect, {
      hooks: {
        onIdempotencyKeyReserved: async (request) => {
          if (failing.has(String(request.headers['idempotency-key']))) throw new Error('the handler failed (test)');
          const hold = held.get(String(request.headers['idempotency-key']));
          if (!hold) return;
          // Only the first request to reserve the key is held: any other one must not wait here.
          held.delete(String(request.headers['idempotency-key']));
          hold.reserved();
          await hold.gate.opened;
        },
      },
    });
  });
  after(() => t.close());

  const json = { 'content-type': 'application/json' };
  const newKey = () => `k-${randomUUID()}`;
  const uniqueName = () => `Rex ${randomUUID().slice(0, 8)}`;
  const create = (key: string | undefined, body: unknown, auth = t.auth) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...auth, ...json, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: JSON.stringify(body),
    });
  const petsNamed = (name: string) => t.database.db.selectFrom('pets').selectAll().where('name', '=', name).execute();
  const storedKey = (key: string) => t.database.db.selectFrom('idempotencyKeys').selectAll().where('idempotencyKey', '=', key).execute();
  const createdPet = async () => {
    const response = await create(undefined, { name: uniqueName(), categoryId: 1 });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: number; name: string };
  };
  before(() => onReady({ t }));

  return { held, failing, json, newKey, uniqueName, create, petsNamed, storedKey, createdPet };
}
