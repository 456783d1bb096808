/**
 * Changing and removing pets: If-Match on PATCH, DELETE /v1/pets/{petId}, and concurrent changes of one pet.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertErrorBody } from '../helpers/error-body.js';
import { type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { type Created, MERGE_PATCH, petChangesSuite } from './pets.changes.fixture.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `changing and removing pets on ${dialect}`, {}, () => {
    let t: TestApp;
    const { create, patch, remove, get, stored } = petChangesSuite(dialect, (ready) => ({ t } = ready));

    describe('If-Match on PATCH', () => {
      it('when it names the current ETag > applies the patch and answers the next ETag', async () => {
        const { pet, etag } = await create();
        const response = await patch(pet.id, { status: 'sold' }, { 'if-match': etag });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers.etag, `"${pet.id}-2"`);
      });

      it('when it names an ETag the pet had before > answers 412 precondition_failed and changes nothing', async () => {
        const { pet, etag } = await create();
        assert.equal((await patch(pet.id, { name: 'First' }, { 'if-match': etag })).statusCode, 200);
        const before = await stored(pet.id);
        const response = await patch(pet.id, { name: 'Second' }, { 'if-match': etag });
        assertErrorBody(response, {
          status: 412,
          code: 'precondition_failed',
          message: new RegExp(`^pet ${pet.id} has changed since the ETag in If-Match was read`),
        });
        assert.deepEqual(await stored(pet.id), before);
        assert.equal((await get(pet.id)).json().name, 'First');
      });

      it('when a list holds the current ETag among others > applies the patch', async () => {
        const { pet, etag } = await create();
        assert.equal((await patch(pet.id, { status: 'sold' }, { 'if-match': `"${pet.id}-7", ${etag}, W/"x"` })).statusCode, 200);
      });

      it('when it is *, and the pet exists > applies the patch', async () => {
        const { pet } = await create();
        assert.equal((await patch(pet.id, { status: 'sold' }, { 'if-match': '*' })).statusCode, 200);
      });

      it('when it is the weak form of the current ETag > answers 412 saying weak tags are never accepted, not that the pet changed', async () => {
        const { pet, etag } = await create();
        const response = await patch(pet.id, { status: 'sold' }, { 'if-match': `W/${etag}` });
        const { message } = assertErrorBody(response, { status: 412, code: 'precondition_failed' });
        assert.equal(
          message,
          `pet ${pet.id}: If-Match names only weak entity tags (W/"…"), which never match: If-Match compares strongly (RFC 9110 §13.1.1); send the ETag of the last answer exactly as received, without W/`,
        );
        assert.equal((await stored(pet.id))?.version, 1);
      });

      it('when it names an old ETag and a weak one > says the pet changed, and that weak tags never match', async () => {
        const { pet, etag } = await create();
        assert.equal((await patch(pet.id, { name: 'First' }, { 'if-match': etag })).statusCode, 200);
        const response = await patch(pet.id, { name: 'Second' }, { 'if-match': `${etag}, W/"${pet.id}-2"` });
        assertErrorBody(response, {
          status: 412,
          code: 'precondition_failed',
          message: new RegExp(`^pet ${pet.id} has changed since the ETag in If-Match was read; .*weak entity tags \\(W/"…"\\) never match`),
        });
      });

      const refused: [string, (created: Created) => string][] = [["another pet's ETag with the same version", ({ pet }) => `"${pet.id + 1000000}-1"`]];
      for (const [scenario, tagOf] of refused) {
        it(`when it is ${scenario} > answers 412 and changes nothing`, async () => {
          const created = await create();
          assertErrorBody(await patch(created.pet.id, { status: 'sold' }, { 'if-match': tagOf(created) }), { status: 412, code: 'precondition_failed' });
          assert.equal((await stored(created.pet.id))?.version, 1);
        });
      }

      for (const [scenario, value] of [
        ['an ETag without its quotes', 'UNQUOTED'],
        ['empty', ''],
        ['* in a list', '*, "1-1"'],
      ] as const) {
        it(`when it is ${scenario} > answers 400 validation_failed naming header.If-Match and changes nothing`, async () => {
          const { pet } = await create();
          const response = await patch(pet.id, { status: 'sold' }, { 'if-match': value === 'UNQUOTED' ? `${pet.id}-1` : value });
          const error = assertErrorBody(response, { status: 400, code: 'validation_failed', message: /^header\.If-Match / });
          assert.deepEqual(
            error.details?.map((d) => d.field),
            ['header.If-Match'],
          );
          assert.equal((await stored(pet.id))?.version, 1);
        });
      }

      it('when two If-Match headers are sent > reads them as one list', async () => {
        const { pet, etag } = await create();
        const response = await t.app.inject({
          method: 'PATCH',
          url: `/v1/pets/${pet.id}`,
          // Sent as two header lines; inject's types only know single values.
          headers: { ...t.auth, 'content-type': MERGE_PATCH, 'if-match': ['"0-0"', etag] as unknown as string },
          payload: '{"status":"sold"}',
        });
        assert.equal(response.statusCode, 200, response.body);
      });
    });

    describe('DELETE /v1/pets/{petId}', () => {
      it('when the pet exists > answers 204 without a body; then reads answer 404 and listings leave it out', async () => {
        const { pet } = await create();
        const other = await create({ name: 'Stays', categoryId: 3 });
        const response = await remove(pet.id);
        assert.equal(response.statusCode, 204);
        assert.equal(response.body, '');
        assert.equal(response.headers['content-type'], undefined);
        assert.equal(response.headers['content-length'], undefined);
        assert.equal(await stored(pet.id), undefined);
        assert.deepEqual((await get(pet.id)).json(), { code: 'pet_not_found', message: `no pet has id ${pet.id}`, status: 404 });
        assertErrorBody(await patch(pet.id, { status: 'sold' }), { status: 404, code: 'pet_not_found' });
        assertErrorBody(await remove(pet.id), { status: 404, code: 'pet_not_found' });
        const listed = (await t.app.inject({ method: 'GET', url: '/v1/pets?limit=100', headers: t.auth })).json() as { id: number }[];
        assert.ok(!listed.some((p) => p.id === pet.id));
        assert.ok(listed.some((p) => p.id === other.pet.id));
      });

      it('when no pet has the id > answers 404 pet_not_found', async () => {
        assert.deepEqual((await remove(987654321)).json(), { code: 'pet_not_found', message: 'no pet has id 987654321', status: 404 });
        assertErrorBody(await remove(987654321, { 'if-match': '*' }), { status: 404, code: 'pet_not_found' });
      });

      it('when the newest pet is removed and another added > the new one gets a larger id: ids are never reused', async () => {
        const newest = await create({ name: 'Newest', categoryId: 1 });
        assert.equal((await remove(newest.pet.id)).statusCode, 204);
        const next = await create({ name: 'Next', categoryId: 1 });
        assert.ok(next.pet.id > newest.pet.id, `${next.pet.id} > ${newest.pet.id}`);
        assert.equal(next.etag, `"${next.pet.id}-1"`);
      });

      it('with If-Match naming the weak form of the current ETag > answers 412 saying weak tags are never accepted, and keeps the pet', async () => {
        const { pet, etag } = await create();
        assertErrorBody(await remove(pet.id, { 'if-match': `W/${etag}` }), {
          status: 412,
          code: 'precondition_failed',
          message: /only weak entity tags .*never match/,
        });
        assert.equal((await stored(pet.id))?.version, 1);
      });

      it('with If-Match naming an old ETag > answers 412 and keeps the pet', async () => {
        const { pet, etag } = await create();
        await patch(pet.id, { status: 'sold' });
        assertErrorBody(await remove(pet.id, { 'if-match': etag }), { status: 412, code: 'precondition_failed' });
        assert.equal((await stored(pet.id))?.status, 'sold');
      });

      it('with If-Match naming the current ETag, or * > removes the pet', async () => {
        const first = await create();
        assert.equal((await remove(first.pet.id, { 'if-match': first.etag })).statusCode, 204);
        assert.equal(await stored(first.pet.id), undefined);
        const second = await create();
        assert.equal((await remove(second.pet.id, { 'if-match': '*' })).statusCode, 204);
        assert.equal(await stored(second.pet.id), undefined);
      });

      it('with a malformed If-Match > answers 400 and keeps the pet', async () => {
        const { pet } = await create();
        assertErrorBody(await remove(pet.id, { 'if-match': 'W/' }), { status: 400, code: 'validation_failed', message: /^header\.If-Match / });
        assert.notEqual(await stored(pet.id), undefined);
      });

      it('without a key > answers 401 and keeps the pet', async () => {
        const { pet } = await create();
        assertErrorBody(await t.app.inject({ method: 'DELETE', url: `/v1/pets/${pet.id}` }), { status: 401, code: 'unauthorized' });
        assert.notEqual(await stored(pet.id), undefined);
      });
    });

    // In one process SQLite runs each statement synchronously, so requests cannot interleave a
    // read and a write there; on PostgreSQL they do. test/e2e/pets-changes.e2e.test.ts races
    // several processes on both databases.

    describe('concurrent changes of one pet', () => {
      const N = 30;

      it(`${N} PATCHes with the same If-Match at once > exactly one answers 200, the others 412, and the winner's change is stored`, async () => {
        const { pet, etag } = await create();
        const answers = await Promise.all(Array.from({ length: N }, (_, i) => patch(pet.id, { name: `writer ${i}` }, { 'if-match': etag })));
        const statuses = answers.map((a) => a.statusCode);
        assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
        assert.equal(statuses.filter((s) => s === 412).length, N - 1, JSON.stringify(statuses));
        const winner = answers.find((a) => a.statusCode === 200)!;
        const row = await stored(pet.id);
        assert.equal(row?.name, winner.json().name);
        assert.equal(row?.version, 2);
      });

      it(`${N} PATCHes without If-Match at once > all apply, and the version counts every one (none is lost)`, async () => {
        const { pet } = await create();
        const answers = await Promise.all(Array.from({ length: N }, (_, i) => patch(pet.id, { name: `writer ${i}` })));
        assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [200]);
        assert.equal(new Set(answers.map((a) => a.headers.etag)).size, N, 'each answer carries its own ETag');
        assert.equal((await stored(pet.id))?.version, N + 1);
      });

      it(`a DELETE and ${N} PATCHes with the same If-Match at once > exactly one of them applies`, async () => {
        const { pet, etag } = await create();
        const answers = await Promise.all([
          remove(pet.id, { 'if-match': etag }),
          ...Array.from({ length: N }, () => patch(pet.id, { status: 'sold' }, { 'if-match': etag })),
        ]);
        const succeeded = answers.filter((a) => a.statusCode === 200 || a.statusCode === 204);
        assert.equal(succeeded.length, 1, JSON.stringify(answers.map((a) => a.statusCode)));
        for (const refused of answers.filter((a) => a !== succeeded[0])) {
          // 412 while the pet is there; 404 once the DELETE has removed it.
          assert.ok([404, 412].includes(refused.statusCode), refused.body);
        }
        const row = await stored(pet.id);
        if (succeeded[0]!.statusCode === 204) assert.equal(row, undefined);
        else assert.equal(row?.version, 2);
      });
    });
  });
}
