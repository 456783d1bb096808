/**
 * A filter that matches few events (a rare type, or a key that reads one kind of event in a store
 * busy with the other) costs each answer a bounded read: the answer stops after a fixed number of
 * events read, and its Link moves past the ones skipped, so the next answer does not read them
 * again. Without that, every answer (and every long-poll re-check) of an idle reader read the
 * whole feed after its cursor.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { EVENTS_READ_PER_ANSWER } from '../../src/events/events.repository.js';
import { cursorOf, nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

/** More events of other types than one answer reads (1,000). */
const SKIPPED = 1_100;

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events feed with a rare type on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const json = { 'content-type': 'application/json' };
    const read = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: t.auth });
      assert.equal(response.statusCode, 200, response.body);
      const next = nextLinkOf(response.headers.link);
      assert.ok(next);
      return { events: response.json() as { id: number; type: string; data: { id: number } }[], next };
    };
    const createPets = async (count: number) => {
      const ids: number[] = [];
      for (let done = 0; done < count; done += 50) {
        const created = await Promise.all(
          Array.from({ length: Math.min(50, count - done) }, () =>
            t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: 'Rex', categoryId: 3 } }),
          ),
        );
        for (const response of created) {
          assert.equal(response.statusCode, 201, response.body);
          ids.push(response.json().id as number);
        }
      }
      return ids;
    };

    it('pet.deleted after many pet.created > an empty answer moves its Link on; the walk still meets the deletion once', async () => {
      assert.ok(SKIPPED > EVENTS_READ_PER_ANSWER);
      const start = await read('/v1/events?type=pet.deleted');
      assert.deepEqual(start.events, []);
      const ids = await createPets(SKIPPED);
      const first = await read(start.next);
      assert.deepEqual(first.events, []);
      assert.notEqual(cursorOf(first.next), cursorOf(start.next), 'an answer that skipped a full read of other events moves past them');
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/pets/${ids[0]}`, headers: t.auth })).statusCode, 204);
      const seen: number[] = [];
      let next = first.next;
      for (let answers = 0; answers < 5; answers++) {
        const page = await read(next);
        seen.push(...page.events.map((event) => event.data.id));
        next = page.next;
      }
      assert.deepEqual(seen, [ids[0]]);
    });
  });
}
