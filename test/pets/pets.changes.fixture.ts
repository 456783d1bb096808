/**
 * What the suites changing and removing pets share: an app per suite, and helpers to create, patch, remove and read a pet.
 * `petChangesSuite(dialect, onReady)` registers the suite's hooks (a fresh app on a fresh database) and
 * answers the helpers its tests share; `onReady` receives the app once it runs.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { DialectName } from '../../src/db/database-url.js';

export const MERGE_PATCH = 'application/merge-patch+json';

export interface Created {
  pet: { id: number; name: string; categoryId: number; status: string };
  etag: string;
}

export function petChangesSuite(dialect: DialectName, onReady: (ready: { t: TestApp }) => void) {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(dialect);
  });
  after(() => t.close());

  const create = async (pet: Record<string, unknown> = { name: 'Rex', categoryId: 3 }): Promise<Created> => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, 'content-type': 'application/json' }, payload: pet });
    assert.equal(response.statusCode, 201, response.body);
    return { pet: response.json(), etag: String(response.headers.etag) };
  };
  const patch = (id: number, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PATCH',
      url: `/v1/pets/${id}`,
      headers: { ...t.auth, 'content-type': MERGE_PATCH, ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const remove = (id: number, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'DELETE', url: `/v1/pets/${id}`, headers: { ...t.auth, ...headers } });
  const get = (id: number) => t.app.inject({ method: 'GET', url: `/v1/pets/${id}`, headers: t.auth });
  const stored = (id: number) => t.database.db.selectFrom('pets').selectAll().where('id', '=', id).executeTakeFirst();
  before(() => onReady({ t }));

  return { create, patch, remove, get, stored };
}
