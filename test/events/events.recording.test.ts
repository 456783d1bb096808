/**
 * Events are recorded in the transaction of the change (migration 2026-11-27T02-events): one per
 * change, with the data after it (before it for a removal), none for a change that rolled back.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { RECORDS_EVENTS, writeTransaction } from '../../src/db/dialect.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Event {
  id: number;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
  changed?: string[];
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events recorded with each change on ${dialect}`, {}, () => {
    let t: TestApp;
    let seen: number;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());
    beforeEach(async () => {
      seen =
        (
          await t.database.db
            .selectFrom('events')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0;
    });

    const json = { 'content-type': 'application/json' };
    const call = async (
      method: 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: object,
      status = method === 'POST' && url === '/v1/pets' ? 201 : method === 'DELETE' ? 204 : 200,
    ) => {
      const headers =
        payload === undefined ? t.auth : { ...t.auth, 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : json['content-type'] };
      const response = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
      assert.equal(response.statusCode, status, response.body);
      return response.body === '' ? undefined : response.json();
    };
    /** The events recorded since the test began, read through the feed (every event of this store is readable). */
    const recorded = async (): Promise<Event[]> => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/events?limit=100', headers: t.auth });
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as Event[]).filter((event) => event.id > seen);
    };
    const shapes = (events: Event[]) => events.map(({ type, data, changed }) => ({ type, data, ...(changed ? { changed } : {}) }));

    it('a pet created, changed, changed to the same, removed > pet.created, pet.updated naming the fields, nothing, pet.deleted with the pet as it was', async () => {
      const pet = await call('POST', '/v1/pets', { name: 'Rex', categoryId: 3 });
      await call('PATCH', `/v1/pets/${pet.id}`, { name: 'Rex II', status: 'sold' });
      await call('PATCH', `/v1/pets/${pet.id}`, { name: 'Rex II' });
      await call('DELETE', `/v1/pets/${pet.id}`);
      const events = await recorded();
      assert.deepEqual(shapes(events), [
        { type: 'pet.created', data: { id: pet.id, name: 'Rex', categoryId: 3, status: 'available' } },
        { type: 'pet.updated', data: { id: pet.id, name: 'Rex II', categoryId: 3, status: 'sold' }, changed: ['name', 'status'] },
        { type: 'pet.deleted', data: { id: pet.id, name: 'Rex II', categoryId: 3, status: 'sold' } },
      ]);
      for (const event of events) {
        assert.match(event.occurredAt, ISO_UTC);
        assert.ok(Number.isSafeInteger(event.id) && event.id > 0);
      }
      assert.deepEqual(Object.keys(events[0]!), ['id', 'type', 'occurredAt', 'data']);
      assert.ok(events[0]!.id < events[1]!.id && events[1]!.id < events[2]!.id, 'ids grow');
    });

    it('an order placed, approved, delivered; another placed and cancelled > each order event, and pet.updated for its pet in the same change', async () => {
      const pet = await call('POST', '/v1/pets', { name: 'Bella', categoryId: 1 });
      const order = await call('POST', '/v1/store/orders', { petId: pet.id }, 201);
      await call('POST', `/v1/store/orders/${order.id}/approve`);
      const delivered = await call('POST', `/v1/store/orders/${order.id}/deliver`);
      const other = await call('POST', '/v1/pets', { name: 'Max', categoryId: 1 });
      const cancelledOrder = await call('POST', '/v1/store/orders', { petId: other.id }, 201);
      const cancelled = await call('POST', `/v1/store/orders/${cancelledOrder.id}/cancel`);
      const petData = (id: number, name: string, status: string) => ({ id, name, categoryId: 1, status });
      assert.deepEqual(shapes(await recorded()), [
        { type: 'pet.created', data: petData(pet.id, 'Bella', 'available') },
        { type: 'pet.updated', data: petData(pet.id, 'Bella', 'pending'), changed: ['status'] },
        { type: 'order.placed', data: order },
        { type: 'order.approved', data: { ...order, status: 'approved', updatedAt: (await recordedOrder(order.id, 'approved')).updatedAt } },
        { type: 'order.delivered', data: delivered },
        { type: 'pet.updated', data: petData(pet.id, 'Bella', 'sold'), changed: ['status'] },
        { type: 'pet.created', data: petData(other.id, 'Max', 'available') },
        { type: 'pet.updated', data: petData(other.id, 'Max', 'pending'), changed: ['status'] },
        { type: 'order.placed', data: cancelledOrder },
        { type: 'order.cancelled', data: cancelled },
        { type: 'pet.updated', data: petData(other.id, 'Max', 'available'), changed: ['status'] },
      ]);
    });

    /** The data of an order event as recorded, to compare with what the action answered. */
    const recordedOrder = async (id: number, status: string) => {
      const event = (await recorded()).find((e) => e.type === `order.${status}` && e.data.id === id);
      assert.ok(event, `no order.${status} for ${id}`);
      return event.data as { updatedAt: string };
    };

    it('refused changes (409 on an order, 412 on a pet) > record nothing', async () => {
      const pet = await call('POST', '/v1/pets', { name: 'Sold', categoryId: 2, status: 'sold' });
      seen = (await recorded()).at(-1)!.id;
      await call('POST', '/v1/store/orders', { petId: pet.id }, 409);
      const refused = await t.app.inject({
        method: 'PATCH',
        url: `/v1/pets/${pet.id}`,
        headers: { ...t.auth, 'content-type': 'application/merge-patch+json', 'if-match': '"1-99"' },
        payload: { name: 'X' },
      });
      assert.equal(refused.statusCode, 412);
      assert.deepEqual(await recorded(), []);
    });

    it('a transaction that wrote a pet and then failed > leaves no event; the next one records its own', async () => {
      await assert.rejects(
        writeTransaction(t.database.db, async (trx) => {
          await insertPet(trx, { name: 'Ghost', categoryId: 1, status: 'available', createdAt: Date.now() });
          throw new Error('rolled back on purpose');
        }),
        /rolled back on purpose/,
      );
      const stored = await t.database.db.selectFrom('events').selectAll().where('id', '>', seen).execute();
      assert.deepEqual(stored, []);
      const pet = await call('POST', '/v1/pets', { name: 'Real', categoryId: 1 });
      assert.deepEqual(shapes(await recorded()), [{ type: 'pet.created', data: { id: pet.id, name: 'Real', categoryId: 1, status: 'available' } }]);
    });

    it("writes that arrive together (one group commit on SQLite), one of them failing after its insert > only the others' events are kept", async () => {
      const write = (name: string, fail: boolean) =>
        writeTransaction(
          t.database.db,
          async (trx) => {
            const pet = await insertPet(trx, { name, categoryId: 1, status: 'available', createdAt: Date.now() });
            if (fail) throw new Error(`${name} fails after its insert`);
            return pet.id;
          },
          RECORDS_EVENTS,
        );
      const outcomes = await Promise.allSettled([write('Kept 1', false), write('Undone', true), write('Kept 2', false)]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      const stored = await t.database.db.selectFrom('events').select(['type', 'data']).where('id', '>', seen).orderBy('id').execute();
      // On PostgreSQL they are three transactions on three connections: their order is not fixed.
      assert.deepEqual(stored.map((row) => [row.type, (JSON.parse(row.data) as { id: number; name: string }).name]).sort(), [
        ['pet.created', 'Kept 1'],
        ['pet.created', 'Kept 2'],
      ]);
      assert.deepEqual(
        stored.map((row) => (JSON.parse(row.data) as { id: number }).id).sort((a, b) => a - b),
        [...kept].sort((a, b) => a - b),
      );
    });
  });
}
