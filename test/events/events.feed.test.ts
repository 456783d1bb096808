/** GET /v1/events: the walk, its Link on every answer, start=latest, filters bound to cursors, scopes. */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { cursorOf, nextLinkOf } from '../helpers/pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

interface Event {
  id: number;
  type: string;
  data: { id: number };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `GET /v1/events on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const json = { 'content-type': 'application/json' };
    const read = async (url: string, headers: Record<string, string> = t.auth) => {
      const response = await t.app.inject({ method: 'GET', url, headers });
      assert.equal(response.statusCode, 200, response.body);
      const next = nextLinkOf(response.headers.link);
      assert.ok(next, `every answer carries a next link; got ${String(response.headers.link)}`);
      return { events: response.json() as Event[], next };
    };
    const createPet = async (name = 'Rex') => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name, categoryId: 3 } });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as number;
    };
    const keyWith = async (...scopes: Scope[]) => ({
      authorization: `Bearer ${(await issueApiKey(t.database.db, { name: scopes.join('-') || 'none', scopes })).key}`,
    });

    it('on an empty store > answers [] and a Link that, followed, answers [] and the same Link', async () => {
      const first = await read('/v1/events');
      assert.deepEqual(first.events, []);
      assert.match(first.next, /^\/v1\/events\?limit=20&cursor=[A-Za-z0-9_-]+$/);
      const again = await read(first.next);
      assert.deepEqual(again.events, []);
      assert.equal(again.next, first.next);
    });

    it('a walk with limit=2 > every event once, oldest first, then an empty answer that stays where it ended and sees what comes next', async () => {
      const start = await read('/v1/events?start=latest');
      assert.deepEqual(start.events, []);
      const ids = [await createPet('A'), await createPet('B'), await createPet('C')];
      const walked: Event[] = [];
      let next = start.next.replace('limit=20', 'limit=2');
      for (const size of [2, 1, 0]) {
        const page = await read(next);
        assert.equal(page.events.length, size);
        walked.push(...page.events);
        if (size === 0) assert.equal(page.next, next, 'an empty answer points at the same position');
        next = page.next;
      }
      assert.deepEqual(
        walked.map((e) => [e.type, e.data.id]),
        ids.map((id) => ['pet.created', id]),
      );
      const later = await createPet('D');
      assert.deepEqual(
        (await read(next)).events.map((e) => e.data.id),
        [later],
      );
    });

    it('start=latest > answers no event and starts after the newest; with a cursor as well > 400', async () => {
      await createPet();
      const latest = await read('/v1/events?start=latest');
      assert.deepEqual(latest.events, []);
      assert.deepEqual((await read(latest.next)).events, []);
      const both = await t.app.inject({ method: 'GET', url: `/v1/events?start=latest&cursor=${cursorOf(latest.next)}`, headers: t.auth });
      assertErrorBody(both, { status: 400, code: 'validation_failed', message: /either start or cursor/ });
    });

    it('type filters, exact and grouped > only those types, and the Link keeps the filter', async () => {
      const petId = await createPet();
      const order = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId } });
      assert.equal(order.statusCode, 201);
      const orders = await read('/v1/events?type=order.*');
      assert.deepEqual(
        orders.events.map((e) => e.type),
        ['order.placed'],
      );
      assert.match(orders.next, /type=order\.\*/);
      const created = await read('/v1/events?type=pet.created&limit=100');
      assert.ok(created.events.length > 0 && created.events.every((e) => e.type === 'pet.created'));
      const mixed = await read('/v1/events?type=order.placed&type=pet.updated&limit=100');
      assert.deepEqual(
        mixed.events.slice(-2).map((e) => e.type),
        ['pet.updated', 'order.placed'],
      );
    });

    it('a cursor with another filter, or of another listing, or altered > 400 invalid_cursor; groups and their types are one filter', async () => {
      const pets = await read('/v1/events?type=pet.*');
      const cursor = cursorOf(pets.next);
      assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/events?cursor=${cursor}`, headers: t.auth }), {
        status: 400,
        code: 'invalid_cursor',
        message: /made for other filters; send the same type/,
      });
      await read(`/v1/events?type=pet.created&type=pet.deleted&type=pet.updated&cursor=${cursor}`);
      const altered = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'AB' : 'AA');
      assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/events?type=pet.*&cursor=${altered}`, headers: t.auth }), {
        status: 400,
        code: 'invalid_cursor',
        message: /not a cursor this service made/,
      });
      await createPet();
      const petsListing = await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: t.auth });
      const petCursor = cursorOf(nextLinkOf(petsListing.headers.link)!);
      assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/events?cursor=${petCursor}`, headers: t.auth }), {
        status: 400,
        code: 'invalid_cursor',
        message: /not a cursor this service made/,
      });
    });

    it('limit and type out of bounds > 400 validation_failed', async () => {
      for (const query of ['limit=0', 'limit=101', 'type=pet.eaten', 'type=pets.*', 'start=oldest']) {
        assertErrorBody(await t.app.inject({ method: 'GET', url: `/v1/events?${query}`, headers: t.auth }), { status: 400, code: 'validation_failed' });
      }
    });

    it('a key with pets:read alone > only pet events; asking only for order events > 403 insufficient_scope naming orders:read', async () => {
      const petId = await createPet();
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId } })).statusCode, 201);
      const petsOnly = await keyWith('pets:read');
      const all = await read('/v1/events?limit=100', petsOnly);
      assert.ok(all.events.length > 0 && all.events.every((e) => e.type.startsWith('pet.')));
      const mixed = await read('/v1/events?limit=100&type=order.*&type=pet.updated', petsOnly);
      assert.ok(mixed.events.length > 0 && mixed.events.every((e) => e.type === 'pet.updated'));
      const refused = await t.app.inject({ method: 'GET', url: '/v1/events?type=order.*', headers: petsOnly });
      assertErrorBody(refused, { status: 403, code: 'insufficient_scope', message: /need the scope orders:read/ });
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="orders:read"');
    });

    it('a key with orders:read alone > only order events; a key with neither read scope > 403', async () => {
      const ordersOnly = await read('/v1/events?limit=100', await keyWith('orders:read'));
      assert.ok(ordersOnly.events.length > 0 && ordersOnly.events.every((e) => e.type.startsWith('order.')));
      const refused = await t.app.inject({ method: 'GET', url: '/v1/events', headers: await keyWith('pets:write', 'orders:write') });
      assertErrorBody(refused, { status: 403, code: 'insufficient_scope', message: /lacks the scope pets:read or orders:read/ });
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:read orders:read"');
    });
  });
}
