/**
 * Changing pets: the ETag of a pet and PATCH /v1/pets/{petId} (JSON merge patch).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { MERGE_PATCH, petChangesSuite } from './pets.changes.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `changing and removing pets on ${dialect}`, {}, () => {
    let t: TestApp;
    const { create, patch, get, stored } = petChangesSuite(dialect, (ready) => ({ t } = ready));

    describe('ETag', () => {
      it('createPet > answers a strong ETag "<id>-1"', async () => {
        const { pet, etag } = await create();
        assert.equal(etag, `"${pet.id}-1"`);
      });

      it('getPet > answers the same ETag as createPet until the pet changes, then the new one', async () => {
        const { pet, etag } = await create();
        assert.equal((await get(pet.id)).headers.etag, etag);
        const changed = await patch(pet.id, { status: 'sold' });
        assert.equal(changed.headers.etag, `"${pet.id}-2"`);
        assert.equal((await get(pet.id)).headers.etag, `"${pet.id}-2"`);
        const head = await t.app.inject({ method: 'HEAD', url: `/v1/pets/${pet.id}`, headers: t.auth });
        assert.equal(head.statusCode, 200);
        assert.equal(head.headers.etag, `"${pet.id}-2"`);
      });

      it('a patch that sets the values already stored > still answers a new ETag', async () => {
        const { pet, etag } = await create();
        const response = await patch(pet.id, { name: pet.name });
        assert.equal(response.statusCode, 200);
        assert.notEqual(response.headers.etag, etag);
      });

      it('error answers > carry no ETag', async () => {
        const { pet } = await create();
        for (const response of [await get(987654321), await patch(pet.id, {}), await patch(987654321, { status: 'sold' })]) {
          assert.equal(response.headers.etag, undefined, response.body);
        }
      });
    });

    describe('PATCH /v1/pets/{petId}', () => {
      it('when the name changes > the pet is found by its new name and no longer by its old one', async () => {
        const { pet } = await create({ name: 'Zyxwold', categoryId: 3 });
        assert.equal((await patch(pet.id, { name: 'Ωmega Zyx' })).statusCode, 200);
        const byName = async (prefix: string) =>
          (await t.app.inject({ method: 'GET', url: `/v1/pets?name=${encodeURIComponent(prefix)}`, headers: t.auth })).json().map((p: { id: number }) => p.id);
        assert.deepEqual(await byName('ωMEGA z'), [pet.id]);
        assert.deepEqual(await byName('Zyxw'), []);
      });

      it('when one field is patched > answers 200 with the whole pet and stores only that change', async () => {
        const { pet } = await create({ name: 'Rex', categoryId: 3, status: 'available' });
        const response = await patch(pet.id, { status: 'pending' });
        assert.equal(response.statusCode, 200);
        assert.match(String(response.headers['content-type']), /^application\/json/);
        assert.deepEqual(response.json(), { ...pet, status: 'pending' });
        const row = await stored(pet.id);
        assert.deepEqual(
          { name: row?.name, categoryId: row?.categoryId, status: row?.status, version: row?.version },
          { name: 'Rex', categoryId: 3, status: 'pending', version: 2 },
        );
        assert.deepEqual((await get(pet.id)).json(), { ...pet, status: 'pending' });
      });

      it('when every field is patched, as application/json > answers 200 with the new values', async () => {
        const { pet } = await create();
        const response = await patch(pet.id, { name: '  Ñandú 🐦 ', categoryId: 9007199254740991, status: 'sold' }, { 'content-type': 'application/json' });
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { id: pet.id, name: '  Ñandú 🐦 ', categoryId: 9007199254740991, status: 'sold' });
        assert.equal((await stored(pet.id))?.categoryId, 9007199254740991);
      });

      it('when the media type carries charset=utf-8 > accepts it', async () => {
        const { pet } = await create();
        assert.equal((await patch(pet.id, { status: 'sold' }, { 'content-type': `${MERGE_PATCH}; charset=utf-8` })).statusCode, 200);
      });

      it('any status > may follow any other', async () => {
        const statuses = ['available', 'pending', 'sold'];
        for (const from of statuses) {
          for (const to of statuses) {
            const { pet } = await create({ name: 'Walker', categoryId: 1, status: from });
            const response = await patch(pet.id, { status: to });
            assert.equal(response.statusCode, 200, `${from} -> ${to}: ${response.body}`);
            assert.equal(response.json().status, to);
          }
        }
      });

      const invalid: [string, string | unknown, string, RegExp][] = [
        ['name is null', { name: null }, 'validation_failed', /^body\.name cannot be null: in a merge patch null removes a field, and name is required/],
        ['categoryId is null', { categoryId: null }, 'validation_failed', /^body\.categoryId cannot be null/],
        ['status is null', { status: null }, 'validation_failed', /^body\.status cannot be null/],
        ['the patch is empty', {}, 'validation_failed', /^body must have at least one field: name, categoryId or status$/],
        ['id is sent', { id: 7 }, 'validation_failed', /^body\.id must not be sent/],
        ['an unknown field is sent', { stauts: 'sold' }, 'validation_failed', /^body\.stauts is not a known field$/],
        ['categoryId is a string', { categoryId: '5' }, 'validation_failed', /^body\.categoryId must be an integer$/],
        ['categoryId is 1.5', { categoryId: 1.5 }, 'validation_failed', /^body\.categoryId must be an integer$/],
        ['categoryId is 0', { categoryId: 0 }, 'validation_failed', /^body\.categoryId must be at least 1$/],
        ['categoryId is 2^53', { categoryId: 9007199254740992 }, 'validation_failed', /^body\.categoryId must be at most 9007199254740991$/],
        ['name is empty', { name: '' }, 'validation_failed', /^body\.name must have at least 1 characters$/],
        ['name is only white space', { name: ' \t' }, 'validation_failed', /^body\.name must contain a character other than white space$/],
        ['name is too long', { name: 'x'.repeat(201) }, 'validation_failed', /^body\.name must have at most 200 characters$/],
        ['name is only zero-width spaces', { name: '\u200B\u200B' }, 'validation_failed', /^body\.name must contain a visible character/],
        ['name holds a right-to-left override', { name: '\u202EXER' }, 'validation_failed', /^body\.name must not contain the bidirectional control U\+202E/],
        ['name is a number', { name: 5 }, 'validation_failed', /^body\.name must be a string$/],
        ['status is unknown', { status: 'lost' }, 'validation_failed', /^body\.status must be one of: available, pending, sold$/],
        ['the body is an array', [{ status: 'sold' }], 'validation_failed', /^body must be an object$/],
        ['the body is a string', '"sold"', 'validation_failed', /^body must be an object$/],
        ['the body is null', 'null', 'validation_failed', /^body must be an object$/],
        ['a field is given twice', '{"status":"sold","status":"pending"}', 'malformed_json', /"status" twice/],
        ['categoryId is beyond 2^53 and would be rounded', '{"categoryId":9007199254740993}', 'malformed_json', /9007199254740993/],
        ['the name holds a NUL character', '{"name":"a\\u0000b"}', 'validation_failed', /body\.name holds a NUL character/],
        ['the body is not JSON', '{"status":', 'malformed_json', /not valid JSON/],
      ];
      for (const [scenario, body, code, message] of invalid) {
        it(`when ${scenario} > answers 400 ${code} naming it, and changes nothing`, async () => {
          const { pet } = await create();
          const before = await stored(pet.id);
          const response = await patch(pet.id, body);
          const error = assertErrorBody(response, { status: 400, code: code, message: message });
          if (code === 'validation_failed') assert.ok(error.details && error.details.length > 0 && error.details.every((d) => d.field.startsWith('body')));
          assert.deepEqual(await stored(pet.id), before);
        });
      }

      it('when name and categoryId are both null > names both', async () => {
        const { pet } = await create();
        const error = assertErrorBody(await patch(pet.id, { name: null, categoryId: null }), { status: 400, code: 'validation_failed' });
        assert.deepEqual(
          error.details?.map((d) => d.field),
          ['body.name', 'body.categoryId'],
        );
      });

      for (const contentType of ['text/plain', 'application/json-patch+json', 'application/x-www-form-urlencoded']) {
        it(`when the body is ${contentType} > answers 415 naming both accepted types, and changes nothing`, async () => {
          const { pet } = await create();
          const before = await stored(pet.id);
          const response = await patch(pet.id, '{"status":"sold"}', { 'content-type': contentType });
          assertErrorBody(response, {
            status: 415,
            code: 'unsupported_media_type',
            message: /^body must be application\/merge-patch\+json or application\/json, not /,
          });
          assert.deepEqual(await stored(pet.id), before);
        });
      }

      it('when createPet is sent a merge patch media type > still answers 415, as before', async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': MERGE_PATCH },
          payload: '{"name":"Rex","categoryId":1}',
        });
        assertErrorBody(response, {
          status: 415,
          code: 'unsupported_media_type',
          message: /^body must be application\/json, not application\/merge-patch\+json$/,
        });
      });

      it('when no pet has the id > answers 404 pet_not_found, with or without If-Match', async () => {
        assert.deepEqual((await patch(987654321, { status: 'sold' })).json(), { code: 'pet_not_found', message: 'no pet has id 987654321', status: 404 });
        assertErrorBody(await patch(987654321, { status: 'sold' }, { 'if-match': '"987654321-1"' }), { status: 404, code: 'pet_not_found' });
        assertErrorBody(await patch(987654321, { status: 'sold' }, { 'if-match': '*' }), { status: 404, code: 'pet_not_found' });
      });

      for (const petId of ['abc', '0', '1.5', '9007199254740992']) {
        it(`when petId is ${petId} > answers 400 validation_failed naming path.petId`, async () => {
          assertErrorBody(
            await t.app.inject({
              method: 'PATCH',
              url: `/v1/pets/${petId}`,
              headers: { ...t.auth, 'content-type': MERGE_PATCH },
              payload: '{"status":"sold"}',
            }),
            { status: 400, code: 'validation_failed', message: /path\.petId/ },
          );
        });
      }

      it('when a query parameter is sent > answers 400 naming it', async () => {
        const { pet } = await create();
        const response = await t.app.inject({
          method: 'PATCH',
          url: `/v1/pets/${pet.id}?status=sold`,
          headers: { ...t.auth, 'content-type': MERGE_PATCH },
          payload: '{"status":"sold"}',
        });
        assertErrorBody(response, { status: 400, code: 'validation_failed', message: /^query\.status is not a known query parameter$/ });
      });

      it('without a key > answers 401 before looking at the body or the pet', async () => {
        const { pet } = await create();
        const response = await t.app.inject({ method: 'PATCH', url: `/v1/pets/${pet.id}`, headers: { 'content-type': 'text/plain' }, payload: 'nonsense' });
        assertErrorBody(response, { status: 401, code: 'unauthorized' });
        assert.equal((await stored(pet.id))?.version, 1);
      });
    });
  });
}
