/**
 * GET /v1/pets/{petId}, the deprecated operation: the pet, its headers, and refusals.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { petRoutesSuite } from './pets.routes.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `pets routes on ${dialect}`, {}, () => {
    let t: TestApp;
    const { post, get } = petRoutesSuite(dialect, (ready) => ({ t } = ready));

    describe('GET /v1/pets/{petId}', () => {
      it('when the pet exists > answers 200 with it and the deprecation headers', async () => {
        const created = (await post({ name: 'Kit', categoryId: 4, status: 'sold' })).json();
        const response = await get(`/v1/pets/${created.id}`);
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json(), created);
        assert.equal(response.headers.etag, `"${created.id}-1"`);
        assert.equal(response.headers.deprecation, '@1795564800');
        assert.equal(response.headers.sunset, 'Thu, 05 Dec 2030 00:00:00 GMT');
        assert.match(String(response.headers.link), /<\/v1\/pets>; rel="successor-version"/);
        assert.match(String(response.headers.link), /rel="deprecation"/);
      });

      it('every answer, errors included > carries Deprecation, Sunset and Link, as the OpenAPI document says', async () => {
        const created = (await post({ name: 'Any', categoryId: 1 })).json();
        const saved = t.clock.now;
        const answers: [number, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>][] = [
          [200, () => get(`/v1/pets/${created.id}`)],
          [400, () => get('/v1/pets/abc')],
          [401, () => t.app.inject({ method: 'GET', url: `/v1/pets/${created.id}` })],
          [404, () => get('/v1/pets/987654321')],
          [
            410,
            async () => {
              t.clock.now = Date.parse('2031-01-01T00:00:00Z');
              try {
                return await get(`/v1/pets/${created.id}`);
              } finally {
                t.clock.now = saved;
              }
            },
          ],
        ];
        for (const [status, answer] of answers) {
          const response = await answer();
          assert.equal(response.statusCode, status);
          assert.equal(response.headers.deprecation, '@1795564800', `${status}`);
          assert.equal(response.headers.sunset, 'Thu, 05 Dec 2030 00:00:00 GMT', `${status}`);
          assert.equal(response.headers.link, '</v1/pets>; rel="successor-version", </docs#/pets/getPet>; rel="deprecation"; type="text/html"', `${status}`);
        }
      });

      it('when a query parameter is sent > answers 400 naming it, rather than ignoring it', async () => {
        const response = await get('/v1/pets/1?status=sold');
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().message, 'query.status is not a known query parameter');
      });

      it('when the pet does not exist > answers 404 pet_not_found with the deprecation headers', async () => {
        const response = await get('/v1/pets/987654321');
        assert.equal(response.statusCode, 404);
        assert.deepEqual(response.json(), { code: 'pet_not_found', message: 'no pet has id 987654321', status: 404 });
        assert.equal(response.headers.sunset, 'Thu, 05 Dec 2030 00:00:00 GMT');
      });

      for (const petId of ['abc', '1.5', '0', '-1', '1e2', '0x10', '9007199254740992', '99999999999999999999999']) {
        it(`when petId is ${petId} > answers 400 validation_failed naming path.petId`, async () => {
          const response = await get(`/v1/pets/${petId}`);
          assert.equal(response.statusCode, 400);
          assert.equal(response.json().code, 'validation_failed');
          assert.match(response.json().message, /path\.petId/);
        });
      }

      it('when the clock reaches the sunset instant > answers 410 operation_removed', async () => {
        const created = (await post({ name: 'Old', categoryId: 1 })).json();
        const saved = t.clock.now;
        try {
          t.clock.now = Date.parse('2030-12-04T23:59:59.999Z');
          assert.equal((await get(`/v1/pets/${created.id}`)).statusCode, 200);
          t.clock.now = Date.parse('2030-12-05T00:00:00Z');
          const response = await get(`/v1/pets/${created.id}`);
          assert.equal(response.statusCode, 410);
          assert.equal(response.json().code, 'operation_removed');
          assert.equal(response.json().message, 'GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets?id={petId}');
          assert.equal(response.headers.sunset, 'Thu, 05 Dec 2030 00:00:00 GMT');
        } finally {
          t.clock.now = saved;
        }
      });
    });
  });
}
