/**
 * /metrics of the real command: on METRICS_PORT (a real second port) with METRICS_TOKEN, and
 * under `--workers 2`, where every scrape answers the sum over the workers.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sampleValue } from '../helpers/metrics.js';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS, waitForListeningProcesses } from '../helpers/spawn-service.js';
import { createEmptyDatabaseUrl } from '../helpers/test-db.js';

const TOKEN = 'metrics-e2e-token-0123456789';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Starts the service on a fresh SQLite file with one key. */
async function start(env: Record<string, string>, args: string[]) {
  const place = await createEmptyDatabaseUrl('sqlite');
  await runCli(['migrate'], { DATABASE_URL: place.url });
  const key = (await runCli(['keys', 'create', '--name', 'scraped'], { DATABASE_URL: place.url })).stdout.trim();
  const service = await spawnService({ databaseUrl: place.url, env, args });
  return { place, key, service };
}

describe('metrics of the real service', { timeout: SUITE_STUCK_MS }, () => {
  const places: { remove(): Promise<void> }[] = [];
  after(async () => {
    await stopAllServices();
    for (const place of places) await place.remove();
  });

  describe('with METRICS_PORT and METRICS_TOKEN', () => {
    let service: RunningService;
    let key: string;
    let metricsUrl: string;
    before(async () => {
      const metricsPort = await freePort();
      const started = await start({ METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN }, ['serve', '--no-bootstrap-key']);
      places.push(started.place);
      ({ service, key } = started);
      metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    });

    it("the metrics port > answers the metrics to the token, counting the main port's requests", async () => {
      assert.equal((await get(`${service.baseUrl}/v1/pets`, { authorization: `Bearer ${key}` })).status, 200);
      const scraped = await get(metricsUrl, { authorization: `Bearer ${TOKEN}` });
      assert.equal(scraped.status, 200);
      assert.equal(scraped.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
      assert.equal(sampleValue(scraped.text, 'animal_store_http_requests_total', { operation: 'listPets', status: '200' }), 1);
      assert.equal(sampleValue(scraped.text, 'animal_store_db_info', { dialect: 'sqlite' }), 1);
    });

    it('the metrics port without the token > answers 401 in the Error shape', async () => {
      const refused = await get(metricsUrl);
      assert.equal(refused.status, 401);
      assert.deepEqual(JSON.parse(refused.text), { code: 'unauthorized', message: 'the metrics need Authorization: Bearer <METRICS_TOKEN>', status: 401 });
    });

    it('the main port > has no /metrics, and the metrics port nothing else', async () => {
      const main = await get(`${service.baseUrl}/metrics`, { authorization: `Bearer ${TOKEN}` });
      assert.equal(main.status, 404);
      assert.equal(JSON.parse(main.text).code, 'route_not_found');
      const other = await get(metricsUrl.replace('/metrics', '/v1/pets'), { authorization: `Bearer ${key}` });
      assert.equal(other.status, 404);
      assert.equal(JSON.parse(other.text).code, 'route_not_found');
    });
  });

  for (const onMetricsPort of [false, true]) {
    describe(`with --workers 2, /metrics on ${onMetricsPort ? 'METRICS_PORT (served by the primary)' : 'the main port'}`, () => {
      let service: RunningService;
      let key: string;
      let metricsUrl: string;
      before(async () => {
        const metricsPort = onMetricsPort ? await freePort() : undefined;
        const started = await start(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}, ['serve', '--no-bootstrap-key', '--workers', '2']);
        places.push(started.place);
        ({ service, key } = started);
        await waitForListeningProcesses(service, 2);
        metricsUrl = metricsPort ? `http://127.0.0.1:${metricsPort}/metrics` : `${service.baseUrl}/metrics`;
      });

      it('requests served by both workers > every scrape answers their sum', async () => {
        const requests = 30;
        // A new connection per request, so the cluster hands them to both workers in turn.
        for (let i = 0; i < requests; i++) {
          assert.equal((await get(`${service.baseUrl}/v1/pets?limit=1`, { authorization: `Bearer ${key}`, connection: 'close' })).status, 200);
        }
        // Log lines are written in batches, at most LOG_FLUSH_MS late: wait for both workers' lines.
        const pids = new Set<unknown>();
        await service.waitForLog((line) => {
          if (line.msg === 'request' && line.url === '/v1/pets?limit=1') pids.add(line.pid);
          return pids.size === 2;
        });
        assert.equal(pids.size, 2, 'both workers served requests');
        for (let scrape = 0; scrape < 4; scrape++) {
          const scraped = await get(metricsUrl, { connection: 'close' });
          assert.equal(scraped.status, 200);
          assert.equal(sampleValue(scraped.text, 'animal_store_http_requests_total', { operation: 'listPets', status: '200' }), requests);
          assert.equal(sampleValue(scraped.text, 'animal_store_http_request_duration_seconds_count', { method: 'GET', route: '/v1/pets' }), requests);
        }
      });
    });
  }
});
