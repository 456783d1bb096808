import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { createMetrics, MAX_KEY_ID_LABELS } from '../../src/metrics/metrics.js';
import { sampleValue, seriesOf } from '../helpers/metrics.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

const METRICS_TOKEN = 'scrape-token-0123456789';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `GET /metrics on ${dialect}`, {}, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    });
    after(() => t.close());

    const scrape = async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(response.statusCode, 200);
      return response;
    };

    it('after some requests > counts them by operation and status, latency by route, deprecated calls by key id', async () => {
      const other = await issueApiKey(t.database.db, { name: 'still on getPet' });
      const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth, payload: { name: 'Rex', categoryId: 1 } });
      assert.equal(created.statusCode, 201);
      const petId = created.json().id as number;
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets?limit=20', headers: t.auth })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets' })).statusCode, 401);
      for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${petId}`, headers: t.auth })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/pets/${petId}`, headers: { authorization: `Bearer ${other.key}` } })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets/999999', headers: t.auth })).statusCode, 404);
      // An unknown path is counted as unmatched, never under its own URL (which a client could vary without end).
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/no-such-thing-1' })).statusCode, 404);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/no-such-thing-2' })).statusCode, 404);
      const ownKeyId = (await t.database.db.selectFrom('apiKeys').select('id').where('name', '=', 'test').executeTakeFirstOrThrow()).id;

      const response = await scrape();
      assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      const text = response.body;
      assert.deepEqual(seriesOf(text, 'animal_store_http_requests_total'), [
        'operation="createPet",status="201"',
        'operation="getPet",status="200"',
        'operation="getPet",status="404"',
        'operation="listPets",status="200"',
        'operation="listPets",status="401"',
        'operation="unmatched",status="404"',
      ]);
      assert.equal(sampleValue(text, 'animal_store_http_requests_total', { operation: 'getPet', status: '200' }), 3);
      assert.equal(sampleValue(text, 'animal_store_http_requests_total', { operation: 'unmatched', status: '404' }), 2);
      assert.equal(sampleValue(text, 'animal_store_http_requests_total', { operation: 'createPet', status: '201' }), 1);
      assert.equal(sampleValue(text, 'animal_store_http_request_duration_seconds_count', { method: 'GET', route: '/v1/pets/:petId' }), 4);
      assert.equal(sampleValue(text, 'animal_store_http_request_duration_seconds_count', { method: 'GET', route: '/v1/pets' }), 2);
      assert.equal(sampleValue(text, 'animal_store_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched' }), 2);
      assert.equal(sampleValue(text, 'animal_store_http_request_duration_seconds_bucket', { method: 'POST', route: '/v1/pets', le: '+Inf' }), 1);
      // getPet's callers by key, including the one whose pet was not found; the 401 is nobody's.
      assert.deepEqual(
        seriesOf(text, 'animal_store_deprecated_calls_total'),
        [`operation="getPet",key_id="${ownKeyId}"`, `operation="getPet",key_id="${other.id}"`].sort(),
      );
      assert.equal(sampleValue(text, 'animal_store_deprecated_calls_total', { operation: 'getPet', key_id: String(ownKeyId) }), 3);
      assert.equal(sampleValue(text, 'animal_store_deprecated_calls_total', { operation: 'getPet', key_id: String(other.id) }), 1);
      assert.equal(sampleValue(text, 'animal_store_rate_limited_total'), undefined);
      assert.equal(sampleValue(text, 'animal_store_db_info', { dialect }), 1);
      // Node's own metrics come along.
      assert.equal(typeof sampleValue(text, 'process_cpu_user_seconds_total'), 'number');
      assert.equal(typeof sampleValue(text, 'nodejs_eventloop_lag_seconds'), 'number');
    });

    it('the database pool > is shown on PostgreSQL, and not on SQLite, which has none', async () => {
      const text = (await scrape()).body;
      if (dialect === 'postgres') {
        assert.equal(sampleValue(text, 'animal_store_db_pool_max_clients'), 5);
        const total = sampleValue(text, 'animal_store_db_pool_clients')!;
        const idle = sampleValue(text, 'animal_store_db_pool_idle_clients')!;
        assert.ok(total >= 1 && total <= 5, `total ${total}`);
        assert.ok(idle <= total, `idle ${idle} of ${total}`);
        assert.equal(sampleValue(text, 'animal_store_db_pool_waiting_queries'), 0);
      } else {
        assert.deepEqual(seriesOf(text, 'animal_store_db_pool_clients'), []);
        assert.deepEqual(seriesOf(text, 'animal_store_db_pool_waiting_queries'), []);
      }
    });

    it('without METRICS_TOKEN > needs no key of any kind', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nonsense' } });
      assert.equal(response.statusCode, 200);
    });
  });
}

describe('GET /metrics > rate-limit refusals', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '1' }, now: Date.parse('2027-01-01T00:00:00Z') });
  });
  after(() => t.close());

  it('answers refused with 429 rate_limited > are counted by operation', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth })).statusCode);
    assert.deepEqual(statuses, [200, 429, 429]);
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.deepEqual(seriesOf(text, 'animal_store_rate_limited_total'), ['operation="listPets"']);
    assert.equal(sampleValue(text, 'animal_store_rate_limited_total', { operation: 'listPets' }), 2);
    assert.equal(sampleValue(text, 'animal_store_http_requests_total', { operation: 'listPets', status: '429' }), 2);
  });
});

describe('GET /metrics > with METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { METRICS_TOKEN } });
  });
  after(() => t.close());

  for (const [scenario, headers] of [
    ['without Authorization', {}],
    ['with another token', { authorization: 'Bearer scrape-token-0123456780' }],
    ['with an API key', undefined],
    ['with the token under another scheme', { authorization: `Basic ${METRICS_TOKEN}` }],
  ] as const) {
    it(`${scenario} > answers 401 in the Error shape with a Bearer challenge`, async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: headers ?? t.auth });
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { code: 'unauthorized', message: 'the metrics need Authorization: Bearer <METRICS_TOKEN>', status: 401 });
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="animal-store-metrics"');
    });
  }

  it('with the token > answers the metrics', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /^# HELP animal_store_http_requests_total /m);
  });
});

describe('GET /metrics > the API document', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('the OpenAPI document > does not list /metrics', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(document.paths).filter((path) => path.includes('metrics')),
      [],
    );
  });
});

describe('deprecated calls by key id', () => {
  it(`more than ${MAX_KEY_ID_LABELS} keys > the later ones count under key_id="other", so the series stay bounded`, async () => {
    const metrics = createMetrics({ dialect: 'sqlite' });
    for (let id = 1; id <= MAX_KEY_ID_LABELS + 5; id++) metrics.countDeprecatedCall('getPet', id);
    metrics.countDeprecatedCall('getPet', 1);
    metrics.countDeprecatedCall('getPet', MAX_KEY_ID_LABELS + 1);
    const text = await metrics.registry.metrics();
    assert.equal(seriesOf(text, 'animal_store_deprecated_calls_total').length, MAX_KEY_ID_LABELS + 1);
    assert.equal(sampleValue(text, 'animal_store_deprecated_calls_total', { operation: 'getPet', key_id: '1' }), 2);
    assert.equal(sampleValue(text, 'animal_store_deprecated_calls_total', { operation: 'getPet', key_id: String(MAX_KEY_ID_LABELS) }), 1);
    assert.equal(sampleValue(text, 'animal_store_deprecated_calls_total', { operation: 'getPet', key_id: 'other' }), 6);
  });
});

describe('request counts between scrapes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  const listPetsCount = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    return sampleValue(response.body, 'animal_store_http_requests_total', { operation: 'listPets', status: '200' });
  };

  it('scraped again > counts each answer once, whatever the scrapes between', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth })).statusCode, 200);
    assert.equal(await listPetsCount(), 3);
    assert.equal(await listPetsCount(), 3);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth })).statusCode, 200);
    assert.equal(await listPetsCount(), 4);
  });
});
