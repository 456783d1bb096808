/**
 * GET /v1/pets filters: by name prefix (folded case, any script), and cursors across filters.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { petNameKey } from '../../src/pets/pet-name-key.js';
import { cursorOf, nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { petFiltersSuite } from './pets.find.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `GET /v1/pets filters on ${dialect}`, {}, () => {
    let t: TestApp;
    const { pets, get, walk, named, assertBadRequest } = petFiltersSuite(dialect, (ready) => ({ t } = ready));

    describe('by name prefix', () => {
      const found: [string, string[]][] = [
        ['ñan', ['Ñandú']],
        ['ÑAN', ['Ñandú']],
        ['Ña', ['Ñandú', 'ñame']],
        ['nan', ['Nandu']],
        ['ελ', ['Ελένη', 'Ελπίδα']],
        ['ΕΛΈ', ['Ελένη']],
        ['ΚΑΣ', ['Κασσάνδρα']],
        ['STRASSE', ['Straße']],
        ['straß', ['Straße']],
        ['stra', ['Straße', 'Strauss']],
        ['rex', ['Ｒｅｘ', 'Rexy', 'rex']],
        ['ｒｅｘｙ', ['Rexy']],
        ['big r', ['Big Rex', 'Big Rita']],
        ['BIG', ['Big Rex', 'Big Rita', 'Bigby']],
        ['🐈', ['🐈 Tom', '🐈‍⬛ Luna']],
        ['🐈‍⬛', ['🐈‍⬛ Luna']],
        ['i̇r', ['İris']],
        ['émi', ['Émile']],
        ['emi', ['emil']],
        // Unicode full case folding: ẞ, ß, ſs, SS and ss are one.
        ['ẞ', ['ẞtrasse']],
        ['ß', ['ẞtrasse']],
        ['SS', ['ẞtrasse']],
        ['ss', ['ẞtrasse']],
        ['ſs', ['ẞtrasse']],
        ['SSTRAẞE', ['ẞtrasse']],
        ['ẞTRASSE', ['ẞtrasse']],
        // İ folds to i with a combining dot above: izmir does not find İzmir, like any accent.
        ['İZ', ['İzmir']],
        ['i̇zmir', ['İzmir']],
        ['izmir', []],
        ['Rexy the great', []],
        ['zz', []],
      ];
      for (const [prefix, names] of found) {
        it(`when name is ${prefix} > answers ${names.length === 0 ? 'no pet' : names.join(', ')}`, async () => {
          const response = await get(`/v1/pets?limit=100&name=${encodeURIComponent(prefix)}`);
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), named(...names));
        });
      }

      it('when walked page by page with a space and non-ASCII in the prefix > answers every match once, in order', async () => {
        assert.deepEqual(await walk(`/v1/pets?limit=1&name=${encodeURIComponent('big r')}`), named('Big Rex', 'Big Rita'));
        assert.deepEqual(await walk(`/v1/pets?limit=1&name=${encodeURIComponent('Ελ')}`), named('Ελένη', 'Ελπίδα'));
        assert.deepEqual(await walk(`/v1/pets?limit=2&name=REX`), named('Ｒｅｘ', 'Rexy', 'rex'));
      });

      it('when combined with status and categoryId > answers the pets that pass all three', async () => {
        const expected = named('Ｒｅｘ', 'Rexy', 'rex', 'Big Rex').filter((p) => p.name.toLowerCase() !== 'big rex');
        const status = expected[0]!.status;
        const categoryId = expected[0]!.categoryId;
        const response = await get(`/v1/pets?name=rex&status=${status}&categoryId=${categoryId}`);
        assert.deepEqual(
          response.json(),
          expected.filter((p) => p.status === status && p.categoryId === categoryId),
        );
      });

      it('when a pet is stored > its search key is stored beside the name', async () => {
        const rows = await t.database.db.selectFrom('pets').select(['name', 'nameKey']).execute();
        assert.equal(rows.length, pets.length);
        for (const row of rows) assert.equal(row.nameKey, petNameKey(row.name), row.name);
      });

      for (const [query, message] of <[string, RegExp][]>[
        ['name=', /^query\.name must have at least 1 characters$/],
        [`name=${'x'.repeat(201)}`, /^query\.name must have at most 200 characters$/],
        ['name=a%00b', /^query\.name must not hold a NUL character or an unpaired UTF-16 surrogate$/],
        ['name=a&name=b', /^query\.name must be given once$/],
      ]) {
        it(`when the query is ${query.slice(0, 30)} > answers 400 validation_failed naming the parameter`, () =>
          assertBadRequest(`/v1/pets?${query}`, 'validation_failed', message));
      }

      it('when the prefix is 1 MB of characters that grow under NFKC and folding > answers 400 naming the limit, computing no key', async () => {
        const response = await t.app.inject({ method: 'GET', url: '/v1/pets', query: { name: '\ufdfaﬃẞ'.repeat(1 << 18) }, headers: t.auth });
        assert.equal(response.statusCode, 400);
        const { code, message, status } = response.json();
        assert.deepEqual({ code, message, status }, { code: 'validation_failed', message: 'query.name must have at most 200 characters', status: 400 });
      });

      it('when the prefix has 200 characters, an emoji counting once > accepts it', async () => {
        assert.equal((await get(`/v1/pets?name=${encodeURIComponent('🐈'.repeat(200))}`)).statusCode, 200);
      });
    });

    describe('cursors', () => {
      const firstLink = async (url: string) => {
        const link = nextLinkOf((await get(url)).headers.link);
        assert.ok(link, `a next link from ${url}`);
        return link;
      };

      it('when a cursor is used with other filters > answers 400 invalid_cursor saying it was made for other filters', async () => {
        const cursor = cursorOf(await firstLink('/v1/pets?limit=1&name=rex&status=available'));
        for (const query of [
          'name=rex',
          'status=available',
          'name=re&status=available',
          'name=rex&status=pending',
          'name=rex&status=available&categoryId=10',
          `name=rex&status=available&id=${pets[8]!.id}`,
          '',
        ]) {
          await assertBadRequest(
            `/v1/pets?limit=1&${query}&cursor=${cursor}`,
            'invalid_cursor',
            /^cursor was made for other filters; send the same status, categoryId, name, id as the request/,
          );
        }
      });

      it('when a cursor is used with the same filters written otherwise and another limit > continues the walk', async () => {
        const chosen = pets.slice(0, 4);
        const link = await firstLink(`/v1/pets?limit=1&${chosen.map((p) => `id=${p.id}`).join('&')}`);
        const reordered = [...chosen]
          .reverse()
          .map((p) => `id=${p.id}`)
          .join('&');
        const response = await get(`/v1/pets?limit=100&${reordered}&cursor=${cursorOf(link)}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), chosen.slice(1));
        const byName = cursorOf(await firstLink('/v1/pets?limit=1&name=rex'));
        assert.deepEqual((await get(`/v1/pets?limit=100&name=REX&cursor=${byName}`)).json(), named('Ｒｅｘ', 'Rexy', 'rex').slice(1));
      });

      it('the next link > names the filters as sent, the name form-encoded, and following it as it is continues the walk', async () => {
        const byName = await firstLink('/v1/pets?limit=1&name=big%20r');
        assert.match(byName, /^\/v1\/pets\?limit=1&name=big\+r&cursor=[A-Za-z0-9_-]{50}$/);
        assert.deepEqual((await get(byName)).json(), named('Big Rex', 'Big Rita').slice(1));
        const [first, second] = named('Big Rex', 'Big Rita');
        const byIds = await firstLink(`/v1/pets?limit=1&id=${second!.id}&name=BIG&id=${first!.id}`);
        assert.match(byIds, new RegExp(`^/v1/pets\\?limit=1&name=BIG&id=${second!.id}&id=${first!.id}&cursor=[A-Za-z0-9_-]{50}$`));
        assert.deepEqual((await get(byIds)).json(), [second]);
      });

      it('when the unsigned cursor of the issue is sent > answers 400 invalid_cursor, not a page', async () => {
        const forged = Buffer.from('{"v":1,"a":40,"s":null}').toString('base64url');
        await assertBadRequest(`/v1/pets?cursor=${forged}`, 'invalid_cursor', /^cursor is not a cursor this service made/);
      });

      it('when a real cursor is altered in one character > answers 400 invalid_cursor', async () => {
        const cursor = cursorOf(await firstLink('/v1/pets?limit=1'));
        const altered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
        await assertBadRequest(`/v1/pets?limit=1&cursor=${altered}`, 'invalid_cursor', /^cursor is not a cursor this service made/);
        await assertBadRequest(`/v1/pets?limit=1&cursor=${cursor.slice(0, -2)}`, 'invalid_cursor', /^cursor is not a cursor this service made/);
      });

      it('when a cursor comes from a service with another secret > answers 400 invalid_cursor', async () => {
        const other = await createTestApp(dialect, { env: { CURSOR_SECRET: 'x'.repeat(32) } });
        try {
          const link = nextLinkOf((await other.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: other.auth })).headers.link);
          // The other store is empty but for its key; make it two pets so it has a next page.
          const made =
            link ??
            (await (async () => {
              for (const name of ['a', 'b']) {
                await other.app.inject({
                  method: 'POST',
                  url: '/v1/pets',
                  headers: { ...other.auth, 'content-type': 'application/json' },
                  payload: { name, categoryId: 1 },
                });
              }
              return nextLinkOf((await other.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: other.auth })).headers.link);
            })());
          assert.ok(made);
          await assertBadRequest(`/v1/pets?limit=1&cursor=${cursorOf(made)}`, 'invalid_cursor', /^cursor is not a cursor this service made/);
        } finally {
          await other.close();
        }
      });

      it('when another instance on the same database, without CURSOR_SECRET, made the cursor > continues the walk', async () => {
        const second = await buildApp({ db: t.database.db, config: loadConfig({ LOG_LEVEL: 'silent' }) });
        try {
          const link = nextLinkOf((await second.inject({ method: 'GET', url: '/v1/pets?limit=2', headers: t.auth })).headers.link);
          assert.ok(link);
          const response = await get(link);
          assert.equal(response.statusCode, 200, response.body);
          assert.deepEqual(response.json(), pets.slice(2, 4));
        } finally {
          await second.close();
        }
      });
    });
  });
}
