/**
 * What the suites of the pets routes share: an app per suite, and helpers to post, get and read the stored pets.
 * `petRoutesSuite(dialect, onReady)` registers the suite's hooks (a fresh app on a fresh database) and
 * answers the helpers its tests share; `onReady` receives the app once it runs.
 */
import { after, before } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { DialectName } from '../../src/db/database-url.js';

export function petRoutesSuite(dialect: DialectName, onReady: (ready: { t: TestApp }) => void) {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(dialect);
  });
  after(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...t.auth, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
  const storedPets = () => t.database.db.selectFrom('pets').selectAll().orderBy('id').execute();
  before(() => onReady({ t }));

  return { post, get, storedPets };
}
