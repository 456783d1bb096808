import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `pets routes on ${dialect}`, {}, () => {
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
        ['name starts with a right-to-left override', { name: '\u202Egnp.exe', categoryId: 1 }, /^body\.name must not contain the bidirectional control U\+202E/],
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

  describeOnDialect(dialect, `GET /v1/pets on ${dialect}`, {}, () => {
    let t: TestApp;
    const ids: Record<string, number[]> = { available: [], pending: [], sold: [] };
    before(async () => {
      t = await createTestApp(dialect);
      const statuses = ['available', 'pending', 'sold'] as const;
      for (let i = 0; i < 45; i++) {
        const status = statuses[i % 3]!;
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/pets',
          headers: { ...t.auth, 'content-type': 'application/json' },
          payload: { name: `pet ${i}`, categoryId: 1 + (i % 5), status },
        });
        ids[status]!.push(response.json().id);
      }
    });
    after(() => t.close());

    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
    const nextLink = (link: unknown) => /^<([^>]+)>; rel="next"$/.exec(String(link ?? ''))?.[1];

    it('when limit is omitted > answers the first 20 pets in ascending id order', async () => {
      const response = await get('/v1/pets');
      assert.equal(response.statusCode, 200);
      const pets = response.json() as { id: number }[];
      assert.equal(pets.length, 20);
      assert.deepEqual(pets.map((p) => p.id), [...pets.map((p) => p.id)].sort((a, b) => a - b));
      assert.ok(nextLink(response.headers.link));
    });

    it('when limit is 100 > answers every pet and no next link', async () => {
      const response = await get('/v1/pets?limit=100');
      assert.equal(response.json().length, 45);
      assert.equal(response.headers.link, undefined);
    });

    it('when status is sold > answers only sold pets', async () => {
      const pets = (await get('/v1/pets?status=sold&limit=100')).json() as { id: number; status: string }[];
      assert.deepEqual(pets.map((p) => p.id), ids.sold);
      assert.ok(pets.every((p) => p.status === 'sold'));
    });

    it('when following the Link header > walks every pet exactly once', async () => {
      const seen: number[] = [];
      let url: string | undefined = '/v1/pets?limit=7';
      let pages = 0;
      while (url && pages++ < 20) {
        const response = await get(url);
        assert.equal(response.statusCode, 200);
        seen.push(...(response.json() as { id: number }[]).map((p) => p.id));
        url = nextLink(response.headers.link);
      }
      assert.deepEqual(seen, [...ids.available!, ...ids.pending!, ...ids.sold!].sort((a, b) => a - b));
    });

    it('when walking a status filter while pets are being added > returns each existing pet once and the new ones at the end', async () => {
      const seen: number[] = [];
      let url: string | undefined = '/v1/pets?limit=4&status=pending';
      const added: number[] = [];
      for (let pages = 0; url && pages < 30; pages++) {
        const response = await get(url);
        seen.push(...(response.json() as { id: number }[]).map((p) => p.id));
        url = nextLink(response.headers.link);
        if (pages < 2) {
          const created = await t.app.inject({
            method: 'POST',
            url: '/v1/pets',
            headers: { ...t.auth, 'content-type': 'application/json' },
            payload: { name: 'late', categoryId: 1, status: 'pending' },
          });
          added.push(created.json().id);
        }
      }
      assert.deepEqual(seen, [...ids.pending!, ...added]);
      assert.equal(new Set(seen).size, seen.length);
      ids.pending!.push(...added);
    });

    it('when a cursor is reused with another status > answers 400 invalid_cursor', async () => {
      const link = nextLink((await get('/v1/pets?limit=2&status=sold')).headers.link)!;
      const cursor = new URL(link, 'http://x').searchParams.get('cursor')!;
      const response = await get(`/v1/pets?limit=2&status=available&cursor=${cursor}`);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'invalid_cursor');
      assert.equal((await get(`/v1/pets?limit=2&cursor=${cursor}`)).json().code, 'invalid_cursor');
    });

    for (const cursor of ['garbage!', 'eyJ2IjoyfQ', Buffer.from('{"v":1,"a":-5,"s":null}').toString('base64url')]) {
      it(`when the cursor is ${cursor} > answers 400 invalid_cursor`, async () => {
        const response = await get(`/v1/pets?cursor=${encodeURIComponent(cursor)}`);
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'invalid_cursor');
      });
    }

    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'limit=abc', 'limit=', 'limit=1e2', 'limit=-1', 'limit=1&limit=2', 'status=lost', 'staus=sold']) {
      it(`when the query is ${query} > answers 400 validation_failed naming the parameter`, async () => {
        const response = await get(`/v1/pets?${query}`);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'validation_failed');
        assert.match(response.json().message, /query\.(limit|status|staus)/);
      });
    }

    for (const query of ['status=sold&status=pending', 'limit=5&limit=5', 'cursor=a&cursor=b']) {
      it(`when a parameter is repeated (${query}) > answers 400 saying it must be given once`, async () => {
        const response = await get(`/v1/pets?${query}`);
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /^query\.(status|limit|cursor) must be given once$/);
      });
    }

    it('when limit is 1 and 100 > accepts both bounds', async () => {
      assert.equal((await get('/v1/pets?limit=1')).json().length, 1);
      assert.equal((await get('/v1/pets?limit=100')).statusCode, 200);
    });
  });
}
