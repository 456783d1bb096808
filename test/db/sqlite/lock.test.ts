/**
 * SQLite while another process holds its write lock (`keys create`, a backup, another worker):
 * statements wait for the lock on timers, so the rest of the process keeps serving, and give
 * up at the statement timeout with 503. SQLite only: PostgreSQL has no file lock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { sqlitePathOf } from '../../../src/db/database-url.js';
import { writeJoined } from '../../../src/db/sqlite/group-commit.js';
import { issueApiKey } from '../../../src/keys/keys.service.js';
import { insertPet } from '../../../src/pets/pets.repository.js';
import { holdSqliteWriteLock } from '../../helpers/sqlite-lock-holder.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-db.js';

/**
 * Lets a test wait until a given number of writes have joined a group commit (db/sqlite/group-commit.ts),
 * where they wait, all together, for the file's write lock.
 */
function writeWatcher(): { reached(count: number): Promise<void>; stop(): void } {
  let seen = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const onJoin = () => {
    seen++;
    for (const waiter of waiters.filter((w) => w.count <= seen)) waiter.resolve();
  };
  writeJoined.subscribe(onJoin);
  return {
    reached: (count) => (seen >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    stop: () => writeJoined.unsubscribe(onJoin),
  };
}

async function startApp(statementTimeoutMs: number) {
  const database = await createTestDatabase('sqlite', { statementTimeoutMs });
  const db = database.db;
  // No key cache: every request reads the key store too, as an instance's first requests do.
  const app = await buildApp({ db, config: loadConfig({ LOG_LEVEL: 'silent', KEY_CACHE_TTL_MS: '0' }) });
  await app.ready();
  const auth = { authorization: `Bearer ${(await issueApiKey(database.db, { name: 'lock' })).key}` };
  return { database, app, auth, path: sqlitePathOf(database.url) };
}

const createPet = (app: FastifyInstance, auth: Record<string, string>, name: string) =>
  app.inject({ method: 'POST', url: '/v1/pets', headers: { ...auth, 'content-type': 'application/json' }, payload: { name, categoryId: 1 } });

/** Runs the request and remembers when it has answered, so a test can tell the order of events. */
function tracked(request: Promise<LightMyRequestResponse>): { answered: boolean; response: Promise<LightMyRequestResponse> } {
  const state = { answered: false, response: request };
  void request.then(() => (state.answered = true));
  return state;
}

describe('SQLite locked by another process', () => {
  describe('when the lock is released before the statement timeout', () => {
    // Far longer than this test takes (milliseconds): the creates must still be waiting when the lock is released.
    const STATEMENT_TIMEOUT_MS = 10_000;
    const writes = writeWatcher();
    let t: Awaited<ReturnType<typeof startApp>>;
    before(async () => {
      t = await startApp(STATEMENT_TIMEOUT_MS);
    });
    after(async () => {
      writes.stop();
      await t?.app.close();
      await t?.database.drop();
    });

    it('concurrent creates wait for it > health checks and reads are answered meanwhile, and every create is stored after', { timeout: 30_000 }, async () => {
      const holder = await holdSqliteWriteLock(t.path);
      const creates = ['a', 'b', 'c', 'd', 'e'].map((name) => tracked(createPet(t.app, t.auth, name)));
      // Every create has joined a group commit, whose transaction finds the file locked. With a
      // blocking busy timeout the process would now stand still, and none of the requests below could answer.
      await writes.reached(creates.length);

      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(health.statusCode, 200);
      const list = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: t.auth });
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(list.json(), []);
      assert.deepEqual(
        creates.map((c) => c.answered),
        [false, false, false, false, false],
        'the creates were still waiting for the lock',
      );

      await holder.release();
      const answers = await Promise.all(creates.map((c) => c.response));
      assert.deepEqual(
        answers.map((a) => a.statusCode),
        [201, 201, 201, 201, 201],
      );
      const stored = await t.database.db.selectFrom('pets').select('name').orderBy('name').execute();
      assert.deepEqual(
        stored.map((row) => row.name),
        ['a', 'b', 'c', 'd', 'e'],
      );
    });
  });

  describe('when the lock outlasts the statement timeout', () => {
    const STATEMENT_TIMEOUT_MS = 300;
    let t: Awaited<ReturnType<typeof startApp>>;
    before(async () => {
      t = await startApp(STATEMENT_TIMEOUT_MS);
    });
    after(async () => {
      await t?.app.close();
      await t?.database.drop();
    });

    it(
      'concurrent creates > each answers 503 with Retry-After while it is held, none is stored, and writes work once it is released',
      { timeout: 30_000 },
      async () => {
        const holder = await holdSqliteWriteLock(t.path);
        const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => createPet(t.app, t.auth, name)));
        for (const answer of answers) {
          assert.equal(answer.statusCode, 503, answer.body);
          assert.deepEqual(answer.json(), { code: 'service_unavailable', message: 'the database is not reachable; retry later', status: 503 });
          assert.equal(answer.headers['retry-after'], '5');
        }
        await holder.release();

        const after = await createPet(t.app, t.auth, 'after');
        assert.equal(after.statusCode, 201, after.body);
        const stored = await t.database.db.selectFrom('pets').select('name').execute();
        assert.deepEqual(
          stored.map((row) => row.name),
          ['after'],
        );
        const { rows } = await sql<{ integrityCheck: string }>`pragma integrity_check`.execute(t.database.db);
        assert.deepEqual(rows, [{ integrityCheck: 'ok' }]);
      },
    );

    it('300 creates > all answer 503 when the first group gives up, none waits for the lock a second time', { timeout: 30_000 }, async () => {
      const holder = await holdSqliteWriteLock(t.path);
      const creates = Array.from({ length: 300 }, (_, i) => tracked(createPet(t.app, t.auth, `queued ${i}`)));
      // The lock is released as soon as the first answer comes: a write that would wait for it
      // again, in a second group, would then get it and answer 201.
      await Promise.race(creates.map((c) => c.response));
      await holder.release();
      const answers = await Promise.all(creates.map((c) => c.response));
      assert.deepEqual([...new Set(answers.map((a) => a.statusCode))], [503]);
      assert.deepEqual(await t.database.db.selectFrom('pets').select('id').where('name', 'like', 'queued %').execute(), []);
    });
  });

  describe('a transaction', () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase('sqlite', { statementTimeoutMs: 10_000 });
    });
    after(() => database?.drop());

    it('when it starts while the lock is held > waits at its start, not half-way, and commits once the lock is free', { timeout: 30_000 }, async () => {
      const holder = await holdSqliteWriteLock(sqlitePathOf(database.url));
      const transaction = database.db.transaction().execute(async (trx) => {
        await insertPet(trx, { name: 'one', categoryId: 1, status: 'available', createdAt: 1 });
        await insertPet(trx, { name: 'two', categoryId: 1, status: 'available', createdAt: 2 });
      });
      let settled = false;
      void transaction.then(
        () => (settled = true),
        () => (settled = true),
      );
      // One turn of the event loop: every statement the transaction could run without the lock has run.
      await nextTurn();
      assert.equal(settled, false, 'the transaction gave up (or went ahead) while the lock was held');
      await holder.release();
      await transaction;
      const stored = await database.db.selectFrom('pets').select('name').orderBy('id').execute();
      assert.deepEqual(
        stored.map((row) => row.name),
        ['one', 'two'],
      );
    });
  });
});
