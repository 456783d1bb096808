/**
 * What the suites of GET /v1/pets filters share: one app per suite holding a fixed set of pets (names in several scripts and cases), made once and only read, and helpers to list them.
 * `petFiltersSuite(dialect, onReady)` registers the suite's hooks (a fresh app on a fresh database) and
 * answers the helpers its tests share; `onReady` receives the app once it runs.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { walkPages } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

import type { DialectName } from '../../src/db/database-url.js';

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

export const NAMES = [
  'Ñandú',
  'ñame',
  'Nandu',
  'Ελένη',
  'Ελπίδα',
  'Κασσάνδρα',
  'Straße',
  'Strauss',
  'Ｒｅｘ',
  'Rexy',
  'rex',
  'Big Rex',
  'Big Rita',
  'Bigby',
  '🐈 Tom',
  '🐈‍⬛ Luna',
  'İris',
  'Émile',
  'emil',
  'ẞtrasse',
  'İzmir',
];

export function petFiltersSuite(dialect: DialectName, onReady: (ready: { t: TestApp }) => void) {
  let t: TestApp;
  const pets: Pet[] = [];
  before(async () => {
    t = await createTestApp(dialect);
    const statuses = ['available', 'pending', 'sold'] as const;
    for (const [i, name] of NAMES.entries()) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: { name, categoryId: 10 + (i % 3), status: statuses[i % 2]! },
      });
      assert.equal(response.statusCode, 201, response.body);
      pets.push(response.json());
    }
    // Every test here lists them all: wait until no transaction of the cluster holds them back.
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
  const walk = async (url: string) => (await walkPages<Pet>(t.app, t.auth, url)).items;
  const named = (...names: string[]) => names.map((name) => pets.find((p) => p.name === name)!).sort((a, b) => a.id - b.id);
  const assertBadRequest = async (url: string, code: string, message: RegExp) => {
    const response = await get(url);
    assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
    assert.equal(response.json().code, code, url);
    assert.equal(response.json().status, 400);
    assert.match(response.json().message, message, url);
  };
  before(() => onReady({ t }));

  return { pets, get, walk, named, assertBadRequest };
}
