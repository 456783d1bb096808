import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { describeWithOwnRedis, type OwnRedis, startOwnRedis } from '../helpers/redis.js';
import { SUITE_STUCK_MS } from '../helpers/spawn-service.js';

const WINDOW_START = Date.parse('2027-01-01T00:00:00Z');
const randomKey = () => `Bearer ask_${randomBytes(32).toString('base64url')}`;

/** Another instance of the same service: same database, same clock, same Redis. */
async function anotherInstance(t: TestApp, env: Record<string, string>): Promise<{ app: FastifyInstance; logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({ db: t.database.db, database: t.database, config: loadConfig({ LOG_LEVEL: 'info', ...env }), now: () => t.clock.now, logStream });
  await app.ready();
  return { app, logs };
}

const messagesOf = (logs: Record<string, unknown>[], pattern: RegExp) => logs.filter((line) => typeof line.msg === 'string' && pattern.test(line.msg));

/** Syncs until the condition holds: Redis reconnects on its own schedule, so the test waits on the outcome. */
async function syncUntil(app: FastifyInstance, condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within 15 s: ${what}`);
    await app.counterSync.syncNow();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Syncs until Redis took every count: on a busy machine the first connection may time out, and
 * a failed push only waits for the next sync, so the test waits for a sync that went through.
 */
async function syncShared(app: FastifyInstance): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await app.counterSync.syncNow())) {
    if (Date.now() > deadline) throw new Error('Redis did not take the counts within 15 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describeWithOwnRedis('rate limits shared through Redis', { timeout: SUITE_STUCK_MS }, () => {
  let redis: OwnRedis;
  before(async () => {
    redis = await startOwnRedis();
  });
  after(() => redis.kill());

  // A long sync interval: the tests push with syncNow(), so no timer races them.
  const envFor = (limit: number) => ({
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `t${randomBytes(4).toString('hex')}:`,
    RATE_LIMIT_PER_MINUTE: String(limit),
    RATE_LIMIT_SYNC_MS: '10000',
  });

  it('two instances > each decides on the fleet total of the last sync plus its own count since', async () => {
    const env = envFor(5);
    const a = await createTestApp('sqlite', { env, now: WINDOW_START });
    const b = await anotherInstance(a, env);
    try {
      const list = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/v1/pets', headers: a.auth });
      for (let i = 0; i < 3; i++) assert.equal((await list(a.app)).statusCode, 200);
      await syncShared(a.app);

      // B has not synced yet: it knows only its own request.
      assert.equal((await list(b.app)).headers.ratelimit, '"per-key";r=4;t=60');
      await syncShared(b.app);
      const fifth = await list(b.app);
      assert.equal(fifth.statusCode, 200);
      assert.equal(fifth.headers.ratelimit, '"per-key";r=0;t=60');
      assert.equal((await list(b.app)).statusCode, 429);

      // A learns of B's requests at its next sync after a request of its own: the lag the README bounds.
      assert.equal((await list(a.app)).headers.ratelimit, '"per-key";r=1;t=60');
      await syncShared(a.app);
      const refused = await list(a.app);
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.headers.ratelimit, '"per-key";r=0;t=60');
      assert.equal(refused.headers['retry-after'], '60');
    } finally {
      await b.app.close();
      await a.close();
    }
  });

  it('failed verifications from one address on two instances > add up to one limit', async () => {
    const env = envFor(3);
    const a = await createTestApp('sqlite', { env, now: WINDOW_START });
    const b = await anotherInstance(a, env);
    try {
      const list = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: randomKey() } });
      for (let i = 0; i < 3; i++) assert.equal((await list(a.app)).statusCode, 401);
      await syncShared(a.app);
      // B's first failure makes it count the address; the sync brings it the fleet's total.
      assert.equal((await list(b.app)).statusCode, 401);
      await syncShared(b.app);
      assert.equal((await list(b.app)).statusCode, 429);
    } finally {
      await b.app.close();
      await a.close();
    }
  });

  it('Redis killed and started again > requests are served on local counts, /readyz stays ready, one log line each way, and counting is shared again', async () => {
    const env = envFor(10);
    const a = await createTestApp('sqlite', { env, now: WINDOW_START });
    try {
      const list = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/v1/pets', headers: a.auth });
      for (let i = 0; i < 2; i++) assert.equal((await list(a.app)).statusCode, 200);
      await a.app.counterSync.syncNow();

      await redis.kill();
      const down = /Redis does not answer/;
      for (let i = 0; i < 3; i++) {
        assert.equal((await list(a.app)).statusCode, 200);
        await syncUntil(a.app, () => messagesOf(a.logs, down).length > 0, 'the log says sharing stopped');
      }
      assert.equal((await a.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      // Local counts still apply: 2 before, 3 during.
      assert.equal((await list(a.app)).headers.ratelimit, '"per-key";r=4;t=60');
      assert.equal(messagesOf(a.logs, down).length, 1, 'once, not per request or per sync');
      assert.equal(messagesOf(a.logs, down)[0]!.level, 40);

      // Started again, empty: what A counted while it was gone reaches it.
      await redis.start();
      const up = /Redis answers again/;
      await syncUntil(a.app, () => messagesOf(a.logs, up).length > 0, 'the log says sharing resumed');
      const b = await anotherInstance(a, env);
      try {
        await list(b.app);
        // B's first connection may time out on a busy machine: wait for a push that went through.
        await syncShared(b.app);
        // In Redis: A's 4 requests counted while it was down, and B's 1; plus B's request now.
        assert.equal((await list(b.app)).headers.ratelimit, '"per-key";r=4;t=60');
      } finally {
        await b.app.close();
      }
      await a.app.counterSync.syncNow();
      assert.equal(messagesOf(a.logs, up).length, 1);
      assert.equal(messagesOf(a.logs, down).length, 1);
    } finally {
      await a.close();
    }
  });
});

describe('rate limits without REDIS_URL', () => {
  it("syncNow > does nothing, and counts stay this process's", async () => {
    const t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '2' }, now: WINDOW_START });
    try {
      await t.app.counterSync.syncNow();
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth })).headers.ratelimit, '"per-key";r=1;t=60');
    } finally {
      await t.close();
    }
  });
});
