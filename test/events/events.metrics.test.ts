/**
 * The events' metrics: events written by type (read from the feed at scrape time), and on
 * PostgreSQL the feed's lag, the age of a committed event an older writer still holds back.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { SEQUENCER_LOCK_KEY } from '../../src/events/events.sequencer.js';
import { sampleValue } from '../helpers/metrics.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect, describeOnPostgres } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';

const json = { 'content-type': 'application/json' };

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `events metrics on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    it('animal_store_events_written_total > counts the events recorded after the first scrape, by type', async () => {
      const scrape = () => t.app.metrics.render();
      const pet = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: 'Counted before', categoryId: 1 } });
      await scrape();
      const petId = (
        await t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...t.auth, ...json }, payload: { name: 'Counted', categoryId: 1 } })
      ).json().id as number;
      const order = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...t.auth, ...json }, payload: { petId } });
      assert.equal(order.statusCode, 201);
      assert.equal(pet.statusCode, 201);
      const text = await scrape();
      assert.equal(sampleValue(text, 'animal_store_events_written_total', { type: 'pet.created' }), 1);
      assert.equal(sampleValue(text, 'animal_store_events_written_total', { type: 'order.placed' }), 1);
      assert.equal(sampleValue(text, 'animal_store_events_written_total', { type: 'pet.updated' }), 1);
      // Counted once: the next scrape adds nothing.
      assert.equal(sampleValue(await scrape(), 'animal_store_events_written_total', { type: 'pet.created' }), 1);
      assert.equal(sampleValue(text, 'animal_store_event_streams_open'), 0);
      assert.equal(sampleValue(text, 'animal_store_event_long_polls_waiting'), 0);
    });
  });
}

describeOnPostgres('events metrics on postgres > the feed lag', {}, () => {
  it('a committed event not numbered yet (the sequencer held up) > animal_store_events_feed_lag_seconds above 0, then 0 once it is numbered', async () => {
    const t = await createTestApp('postgres');
    const holder = new pg.Client({ connectionString: t.database.url });
    const writer = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    await writer.connect();
    try {
      assert.equal(sampleValue(await t.app.metrics.render(), 'animal_store_events_feed_lag_seconds'), 0);
      // The sequencers' lock, held as a stuck sequencer would hold it.
      await holder.query('begin');
      await holder.query(`select pg_advisory_xact_lock(${SEQUENCER_LOCK_KEY})`);
      await writer.query("insert into pets (name, name_key, category_id, status, created_at) values ('Waiting', 'waiting', 1, 'available', 0)");
      await waitUntil(async () => (sampleValue(await t.app.metrics.render(), 'animal_store_events_feed_lag_seconds') ?? 0) > 0, {
        deadlineMs: 10_000,
        what: 'the lag never showed the waiting event',
      });
      await holder.query('commit');
      await waitUntil(async () => sampleValue(await t.app.metrics.render(), 'animal_store_events_feed_lag_seconds') === 0, {
        deadlineMs: 10_000,
        what: 'the event was never numbered',
      });
    } finally {
      await holder.end();
      await writer.end();
      await t.close();
    }
  });
});
