/**
 * Property-based tests of the contract, with fast-check (seeded, bounded): arbitrary bodies,
 * query strings and paths, valid and invalid, derived from openapi.json's schemas, never make
 * the service answer a 5xx or anything openapi.json does not allow, and a created animal reads
 * back exactly as it was sent. Set FC_SEED to replay another seed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { assertDocumentedAnswer, operationPathOf } from '../helpers/openapi-responses.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DIALECTS } from '../helpers/test-db.js';

const SEED = Number(process.env.FC_SEED ?? 20261126);
const RUNS = 40;
const settings = { seed: SEED, numRuns: RUNS, endOnFailure: true };

const STATUSES = ['available', 'pending', 'sold'] as const;
const ORDER_STATUSES = ['placed', 'approved', 'delivered', 'cancelled'] as const;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// Values near the schemas' edges, and of every other JSON type.
const anyJson = fc.jsonValue({ maxDepth: 2 });
const integerish = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constantFrom(0, -1, MAX_SAFE, MAX_SAFE + 1, 1.5, 1e21), fc.string({ maxLength: 4 }), anyJson);
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
  fc.constantFrom('', ' ', '\u200b', 'x'.repeat(200), 'x'.repeat(201), 'Ñandú', '\u202eRex', 'a\u0000b'),
);
const validNewPet = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => /[A-Za-z0-9]/.test(text)),
    categoryId: fc.integer({ min: 1, max: MAX_SAFE }),
    status: fc.constantFrom(...STATUSES),
  },
  { requiredKeys: ['name', 'categoryId'] },
);
const newPetLike = fc.record(
  { name: fc.oneof(name, anyJson), categoryId: integerish, status: fc.oneof(fc.constantFrom(...STATUSES), anyJson), id: integerish, extra: anyJson },
  { requiredKeys: [] },
);
const petBody = fc.oneof(validNewPet, newPetLike, anyJson);
const patchBody = fc.oneof(
  fc.record({ name, categoryId: integerish, status: fc.oneof(fc.constantFrom(...STATUSES), anyJson), id: integerish }, { requiredKeys: [] }),
  anyJson,
);
const orderBody = fc.oneof(fc.record({ petId: integerish, status: fc.constantFrom(...ORDER_STATUSES), extra: anyJson }, { requiredKeys: [] }), anyJson);

const queryValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom(...STATUSES, ...ORDER_STATUSES, '', '1e2', '0x10', String(MAX_SAFE + 1)),
);
const queryKey = fc.constantFrom('limit', 'status', 'categoryId', 'name', 'id', 'cursor', 'petId', 'unknown', 'LIMIT', '');
const queryString = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }).map((pairs) => new URLSearchParams(pairs).toString());
const segment = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map(String),
  fc.constantFrom('0', '-1', '1.5', '1e3', String(MAX_SAFE + 1), '00001', 'abc', '%20', ''),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);

for (const dialect of TEST_DIALECTS) {
  describe(`contract properties on ${dialect} (seed ${SEED})`, { timeout: 300_000 }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => t?.close());

    const send = async (method: string, url: string, body?: unknown, contentType = 'application/json') => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const answer = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { ...t.auth, ...(payload === undefined ? {} : { 'content-type': contentType }) },
        ...(payload === undefined ? {} : { payload }),
      });
      assertDocumentedAnswer(method, operationPathOf(url.split('?')[0]!), answer, `${url} ${payload ?? ''}`);
      return answer;
    };

    it('POST /v1/pets > arbitrary bodies > a documented answer, and a created animal reads back identical', async () => {
      await fc.assert(
        fc.asyncProperty(petBody, async (body) => {
          const created = await send('POST', '/v1/pets', body);
          if (created.statusCode !== 201) return;
          const pet = created.json() as Record<string, unknown>;
          const sent = body as Record<string, unknown>;
          assert.deepEqual(pet, { id: pet.id, name: sent.name, categoryId: sent.categoryId, status: sent.status ?? 'available' });
          const read = await send('GET', `/v1/pets?id=${pet.id as number}`);
          assert.deepEqual(read.json(), [pet]);
        }),
        settings,
      );
    });

    it('GET /v1/pets > arbitrary query strings > a documented answer', async () => {
      await fc.assert(
        fc.asyncProperty(queryString, async (query) => {
          await send('GET', `/v1/pets?${query}`);
        }),
        settings,
      );
    });

    it('PATCH and DELETE /v1/pets/{petId} > arbitrary ids and bodies > a documented answer', async () => {
      await send('POST', '/v1/pets', { name: 'Target', categoryId: 1 });
      await fc.assert(
        fc.asyncProperty(
          segment,
          patchBody,
          fc.constantFrom('application/merge-patch+json', 'application/json'),
          fc.boolean(),
          async (petId, body, contentType, remove) => {
            if (remove) await send('DELETE', `/v1/pets/${petId}`);
            else await send('PATCH', `/v1/pets/${petId}`, body, contentType);
          },
        ),
        settings,
      );
    });

    it('orders > arbitrary bodies, ids and actions > a documented answer', async () => {
      for (let i = 0; i < 5; i++) await send('POST', '/v1/pets', { name: `Stock ${i}`, categoryId: 2 });
      await fc.assert(
        fc.asyncProperty(orderBody, segment, fc.constantFrom('approve', 'deliver', 'cancel'), queryString, async (body, orderId, action, query) => {
          await send('POST', '/v1/store/orders', body);
          await send('POST', `/v1/store/orders/${orderId}/${action}`);
          await send('GET', `/v1/store/orders/${orderId}`);
          await send('GET', `/v1/store/orders?${query}`);
        }),
        settings,
      );
    });

    it('any path > arbitrary segments and methods > a documented answer, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
          fc.array(segment, { minLength: 1, maxLength: 3 }),
          async (method, segments) => {
            await send(method, `/v1/${segments.join('/')}`, method === 'GET' || method === 'DELETE' ? undefined : {});
          },
        ),
        settings,
      );
    });
  });
}
