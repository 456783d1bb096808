/**
 * GET /v1/pets filters: by id and by categoryId.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { petFiltersSuite } from './pets.find.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `GET /v1/pets filters on ${dialect}`, {}, () => {
    const { pets, get, walk, assertBadRequest } = petFiltersSuite(dialect, () => {});

    describe('by id', () => {
      it('when two ids are given > answers those pets in ascending id order', async () => {
        const [a, b] = [pets[5]!, pets[2]!];
        const response = await get(`/v1/pets?id=${a.id}&id=${b.id}`);
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json(), [b, a]);
        assert.equal(response.headers.link, undefined);
      });

      it('when one id is given > answers a one-pet array, the replacement of getPet', async () => {
        const pet = pets[3]!;
        assert.deepEqual((await get(`/v1/pets?id=${pet.id}`)).json(), [pet]);
        assert.deepEqual((await get(`/v1/pets/${pet.id}`)).json(), pet);
      });

      it('when an id no pet has is among them, or one is repeated > leaves it out, answers each pet once', async () => {
        const pet = pets[0]!;
        assert.deepEqual((await get(`/v1/pets?id=987654321&id=${pet.id}&id=${pet.id}`)).json(), [pet]);
        assert.deepEqual((await get('/v1/pets?id=987654321')).json(), []);
      });

      it('when 100 ids are given > accepts them', async () => {
        const ids = [...pets.map((p) => p.id), ...Array.from({ length: 100 - pets.length }, (_, i) => 900_000 + i)];
        const response = await get(`/v1/pets?limit=100&${ids.map((id) => `id=${id}`).join('&')}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), pets);
      });

      it('when 101 ids, or thousands, are given > answers 400 naming the limit, with one detail', async () => {
        for (const count of [101, 3000]) {
          const response = await get(`/v1/pets?${Array.from({ length: count }, (_, i) => `id=${i + 1}`).join('&')}`);
          assert.equal(response.statusCode, 400);
          assert.deepEqual(response.json(), {
            code: 'validation_failed',
            message: 'query.id may be given at most 100 times',
            status: 400,
            details: [{ field: 'query.id', message: 'query.id may be given at most 100 times' }],
          });
        }
      });

      it('when thousands of malformed ids are given > answers 400 with a bounded list of problems', async () => {
        const response = await get(`/v1/pets?${Array.from({ length: 3000 }, () => 'id=x').join('&')}`);
        assert.equal(response.statusCode, 400);
        const details = response.json().details as { field: string; message: string }[];
        assert.ok(details.some((d) => d.message === 'query.id may be given at most 100 times'));
        assert.ok(details.length <= 102, `${details.length} details`);
      });

      for (const [query, message] of <[string, RegExp][]>[
        ['id=abc', /^query\.id\[0\] must be an integer written in decimal digits$/],
        ['id=', /^query\.id\[0\] must be an integer written in decimal digits$/],
        ['id=1e2', /^query\.id\[0\] must be an integer written in decimal digits$/],
        ['id=1.5', /^query\.id\[0\] must be an integer written in decimal digits$/],
        ['id=0x10', /^query\.id\[0\] must be an integer written in decimal digits$/],
        ['id=7&id=-1', /^query\.id\[1\] must be at least 1$/],
        ['id=0', /^query\.id\[0\] must be at least 1$/],
        ['id=7&id=9007199254740992', /^query\.id\[1\] must be at most 9007199254740991$/],
        ['id=99999999999999999999999', /^query\.id\[0\] must be at most 9007199254740991$/],
      ]) {
        it(`when the query is ${query} > answers 400 validation_failed naming the value`, () =>
          assertBadRequest(`/v1/pets?${query}`, 'validation_failed', message));
      }

      it('when ids are walked page by page > answers each of them once, in order', async () => {
        const chosen = pets.filter((_, i) => i % 2 === 0);
        const ids = [...chosen]
          .reverse()
          .map((p) => `id=${p.id}`)
          .join('&');
        assert.deepEqual(await walk(`/v1/pets?limit=3&${ids}`), chosen);
      });
    });

    describe('by categoryId', () => {
      it('when walked page by page > answers every pet of the category once, in order', async () => {
        const expected = pets.filter((p) => p.categoryId === 11);
        assert.ok(expected.length > 3);
        assert.deepEqual(await walk('/v1/pets?limit=2&categoryId=11'), expected);
      });

      it('when combined with status > answers the pets that pass both', async () => {
        const expected = pets.filter((p) => p.categoryId === 12 && p.status === 'pending');
        assert.ok(expected.length > 0);
        assert.deepEqual(await walk('/v1/pets?limit=1&categoryId=12&status=pending'), expected);
      });

      it('when no pet has the category > answers an empty array', async () => {
        assert.deepEqual((await get('/v1/pets?categoryId=9007199254740991')).json(), []);
      });

      for (const [query, message] of <[string, RegExp][]>[
        ['categoryId=abc', /^query\.categoryId must be an integer written in decimal digits$/],
        ['categoryId=', /^query\.categoryId must be an integer written in decimal digits$/],
        ['categoryId=1.5', /^query\.categoryId must be an integer written in decimal digits$/],
        ['categoryId=0', /^query\.categoryId must be at least 1$/],
        ['categoryId=9007199254740992', /^query\.categoryId must be at most 9007199254740991$/],
        ['categoryId=1&categoryId=2', /^query\.categoryId must be given once$/],
        ['categoryid=1', /^query\.categoryid is not a known query parameter$/],
      ]) {
        it(`when the query is ${query} > answers 400 validation_failed naming the parameter`, () =>
          assertBadRequest(`/v1/pets?${query}`, 'validation_failed', message));
      }
    });
  });
}
