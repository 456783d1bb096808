/**
 * GET /v1/pets, the listing: one app per suite holding 45 pets of three statuses, made once and
 * only read; filters by status, pages and their Link headers.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
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
      assert.deepEqual(
        pets.map((p) => p.id),
        [...pets.map((p) => p.id)].sort((a, b) => a - b),
      );
      assert.ok(nextLink(response.headers.link));
    });

    it('when limit is 100 > answers every pet and no next link', async () => {
      const response = await get('/v1/pets?limit=100');
      assert.equal(response.json().length, 45);
      assert.equal(response.headers.link, undefined);
    });

    it('when status is sold > answers only sold pets', async () => {
      const pets = (await get('/v1/pets?status=sold&limit=100')).json() as { id: number; status: string }[];
      assert.deepEqual(
        pets.map((p) => p.id),
        ids.sold,
      );
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
      assert.deepEqual(
        seen,
        [...ids.available!, ...ids.pending!, ...ids.sold!].sort((a, b) => a - b),
      );
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
