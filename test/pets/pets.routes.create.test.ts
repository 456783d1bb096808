/**
 * POST /v1/pets: what it stores and answers, and each way a body is refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { petRoutesSuite } from './pets.routes.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `pets routes on ${dialect}`, {}, () => {
    let t: TestApp;
    const { post, get, storedPets } = petRoutesSuite(dialect, (ready) => ({ t } = ready));

    describe('POST /v1/pets', () => {
      it('when the body is valid > answers 201 with the stored Pet and a Location header', async () => {
        const response = await post({ name: 'Rex', categoryId: 3, status: 'pending' });
        assert.equal(response.statusCode, 201);
        const pet = response.json();
        assert.deepEqual(Object.keys(pet).sort(), ['categoryId', 'id', 'name', 'status']);
        assert.equal(typeof pet.id, 'number');
        assert.deepEqual(pet, { id: pet.id, name: 'Rex', categoryId: 3, status: 'pending' });
        assert.equal(response.headers.location, `/v1/pets/${pet.id}`);
        assert.equal(response.headers.etag, `"${pet.id}-1"`);
        assert.match(String(response.headers['content-type']), /^application\/json/);
        const row = await t.database.db.selectFrom('pets').selectAll().where('id', '=', pet.id).executeTakeFirstOrThrow();
        assert.deepEqual({ name: row.name, categoryId: row.categoryId, status: row.status }, { name: 'Rex', categoryId: 3, status: 'pending' });
      });

      it('when status is omitted > stores and answers status available', async () => {
        const response = await post({ name: 'Tom', categoryId: 1 });
        assert.equal(response.statusCode, 201);
        assert.equal(response.json().status, 'available');
      });

      it('when pets are created one after another > assigns growing ids that are never reused', async () => {
        const first = (await post({ name: 'A', categoryId: 1 })).json().id as number;
        await t.database.db.deleteFrom('pets').where('id', '=', first).execute();
        const second = (await post({ name: 'B', categoryId: 1 })).json().id as number;
        assert.ok(second > first, `${second} > ${first}`);
      });

      it('when the name has surrounding white space and unicode > stores it exactly as sent', async () => {
        const name = '  Ñandú 🐦 \t';
        const response = await post({ name, categoryId: 2 });
        assert.equal(response.statusCode, 201);
        assert.equal(response.json().name, name);
        assert.equal((await get(`/v1/pets/${response.json().id}`)).json().name, name);
      });

      it('when categoryId is 2^53-1 > stores and answers it exactly', async () => {
        const response = await post({ name: 'Max', categoryId: 9007199254740991 });
        assert.equal(response.statusCode, 201);
        assert.match(response.body, /"categoryId":9007199254740991/);
        assert.equal((await get(`/v1/pets/${response.json().id}`)).json().categoryId, 9007199254740991);
      });

      it('when the name has exactly 200 characters > accepts it', async () => {
        assert.equal((await post({ name: 'x'.repeat(200), categoryId: 1 })).statusCode, 201);
      });

      const invalidBodies: [string, unknown, RegExp][] = [
        ['categoryId is a string', { name: 'Rex', categoryId: '5' }, /body\.categoryId must be an integer/],
        ['categoryId is 1.5', { name: 'Rex', categoryId: 1.5 }, /body\.categoryId must be an integer/],
        ['categoryId is null', { name: 'Rex', categoryId: null }, /body\.categoryId must be an integer/],
        ['categoryId is 0', { name: 'Rex', categoryId: 0 }, /body\.categoryId must be at least 1/],
        ['categoryId is negative', { name: 'Rex', categoryId: -4 }, /body\.categoryId must be at least 1/],
        ['categoryId is 2^53', { name: 'Rex', categoryId: 9007199254740992 }, /body\.categoryId must be at most 9007199254740991/],
        ['categoryId is missing', { name: 'Rex' }, /body\.categoryId is required/],
        ['name is missing', { categoryId: 1 }, /body\.name is required/],
        ['name is empty', { name: '', categoryId: 1 }, /body\.name must have at least 1 characters/],
        ['name is only white space', { name: ' \t ', categoryId: 1 }, /body\.name must contain a character other than white space/],
        ['name is too long', { name: 'x'.repeat(201), categoryId: 1 }, /body\.name must have at most 200 characters/],
        ['name is only zero-width spaces', { name: '\u200B\u200B', categoryId: 1 }, /^body\.name must contain a visible character/],
        ['name is only a right-to-left mark', { name: '\u200F', categoryId: 1 }, /^body\.name must contain a visible character/],
        [
          'name starts with a right-to-left override',
          { name: '\u202Egnp.exe', categoryId: 1 },
          /^body\.name must not contain the bidirectional control U\+202E/,
        ],
        ['name holds a right-to-left isolate', { name: 'Rex\u2067', categoryId: 1 }, /^body\.name must not contain the bidirectional control U\+2067/],
        ['name is a number', { name: 5, categoryId: 1 }, /body\.name must be a string/],
        ['name is null', { name: null, categoryId: 1 }, /body\.name must be a string/],
        ['status is unknown', { name: 'Rex', categoryId: 1, status: 'lost' }, /body\.status must be one of: available, pending, sold/],
        ['status is null', { name: 'Rex', categoryId: 1, status: null }, /body\.status must be a string/],
        ['an unknown field is sent', { name: 'Rex', categoryId: 1, stauts: 'sold' }, /body\.stauts is not a known field/],
        ['id is sent', { id: 7, name: 'Rex', categoryId: 1 }, /body\.id must not be sent: the id is assigned by the service/],
        ['the body is an array', [{ name: 'Rex', categoryId: 1 }], /body must be an object/],
        ['the body is a string', '"Rex"', /body must be an object/],
      ];
      for (const [scenario, body, message] of invalidBodies) {
        it(`when ${scenario} > answers 400 validation_failed naming the field, and stores nothing`, async () => {
          const before = await storedPets();
          const response = await post(body);
          assert.equal(response.statusCode, 400, response.body);
          const error = response.json();
          assert.equal(error.code, 'validation_failed');
          assert.equal(error.status, 400);
          assert.match(error.message, message);
          assert.ok(Array.isArray(error.details) && error.details.length > 0);
          assert.deepEqual(await storedPets(), before);
        });
      }

      it('when categoryId is 9007199254740993, which JSON.parse would round > answers 400 and stores nothing', async () => {
        const before = await storedPets();
        const response = await post('{"name":"Big","categoryId":9007199254740993}');
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), {
          code: 'malformed_json',
          message:
            'body holds the number 9007199254740993, which JSON.parse cannot read exactly (integers are exact up to 2^53-1, 9007199254740991), so it is refused rather than rounded',
          status: 400,
        });
        assert.deepEqual(await storedPets(), before);
      });

      for (const [scenario, literal] of <[string, string][]>[
        ['a number beyond 2^53 hides in exponent form', '9.007199254740993e15'],
        ['a fraction that JSON.parse would round to 3', '2.9999999999999999'],
        ['a fraction just above 3', '3.0000000000000001'],
        ['a tiny fraction that JSON.parse would read as 0', '1e-400'],
      ]) {
        it(`when categoryId is ${literal}, ${scenario} > answers 400 malformed_json and stores nothing`, async () => {
          const before = await storedPets();
          const response = await post(`{"name":"Exact","categoryId":${literal}}`);
          assert.equal(response.statusCode, 400);
          assert.equal(response.json().code, 'malformed_json');
          assert.match(response.json().message, new RegExp(literal.replace(/[.+-]/g, '\\$&')));
          assert.deepEqual(await storedPets(), before);
        });
      }

      it('when categoryId is written 3.0 or 3e0 > accepts it as the integer 3', async () => {
        for (const literal of ['3.0', '3e0', '300e-2']) {
          const response = await post(`{"name":"Three","categoryId":${literal}}`);
          assert.equal(response.statusCode, 201, literal);
          assert.equal(response.json().categoryId, 3);
        }
      });

      for (const [scenario, name] of <[string, string][]>[
        ['a NUL character', 'f\\u0000g'],
        ['an unpaired surrogate', 'e\\ud800'],
        ['a lone low surrogate', '\\udc00x'],
      ]) {
        it(`when the name holds ${scenario} > answers 400 validation_failed on every database and stores nothing`, async () => {
          const before = await storedPets();
          const response = await post(`{"name":"${name}","categoryId":1}`);
          assert.equal(response.statusCode, 400);
          assert.equal(response.json().code, 'validation_failed');
          assert.match(response.json().message, /body\.name holds a NUL character or an unpaired UTF-16 surrogate/);
          assert.deepEqual(await storedPets(), before);
        });
      }

      it('when the name is an emoji written as a surrogate pair > stores it exactly', async () => {
        const response = await post('{"name":"\\ud83d\\udc08","categoryId":1}');
        assert.equal(response.statusCode, 201);
        assert.equal(response.json().name, '🐈');
      });

      it('when the body is not valid UTF-8 > answers 400 malformed_json and stores nothing', async () => {
        const before = await storedPets();
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]),
        });
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { code: 'malformed_json', message: 'body is not valid UTF-8', status: 400 });
        assert.deepEqual(await storedPets(), before);
      });

      it('when the body declares charset=latin1 > answers 415 rather than misreading it', async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json; charset=latin1' },
          payload: Buffer.from('{"name":"\xd1and\xfa","categoryId":1}', 'latin1'),
        });
        assert.equal(response.statusCode, 415);
        assert.equal(response.json().code, 'unsupported_media_type');
      });

      it('when digits beyond 2^53 are inside a string > does not mistake them for a number', async () => {
        const response = await post('{"name":"9007199254740993","categoryId":1}');
        assert.equal(response.statusCode, 201);
        assert.equal(response.json().name, '9007199254740993');
      });
    });
  });
}
