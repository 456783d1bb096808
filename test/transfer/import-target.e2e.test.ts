/**
 * `animal-store import` and the store it loads into: a target that holds anything, one another
 * process has open (a serving service, a lock), and a database connection ended in the middle of
 * the load. Each is refused with a message that says what happened and what to do, exit status 1,
 * and nothing written.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { numberWaitingEvents } from '../../src/events/events.sequencer.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import { insertOrder } from '../../src/orders/orders.repository.js';
import { insertPet } from '../../src/pets/pets.repository.js';
import { exportStore } from '../../src/transfer/export.js';
import { childEnv, track } from '../helpers/child-processes.js';
import { holdExclusively } from '../../src/db/sqlite/exclusive-open.js';
import { holdSqliteWriteLock } from '../helpers/sqlite-lock-holder.js';
import { CLI_PATH, REPO_ROOT, runCli, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, describeOnPostgres, type TestDatabase } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';
import { insertWebhookEndpoint } from '../helpers/webhook-endpoint-row.js';

const TABLES = ['pets', 'orders', 'api_keys', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts'] as const;

async function rowCounts(store: TestDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
    counts[table] = Number(rows[0]?.n);
  }
  return counts;
}

/** A store of 1,200 pets (more than one insert batch) with an order, a key and their events, exported. */
async function exportedStore(dialect: 'sqlite' | 'postgres'): Promise<{ source: TestDatabase; text: string }> {
  const source = await createTestDatabase(dialect);
  await issueApiKey(source.db, { name: 'reader', scopes: ['pets:read'] });
  const rows = Array.from({ length: 1200 }, (_, i) => ({
    name: `Pet ${i}`,
    nameKey: `pet ${i}`,
    categoryId: 1,
    status: 'available' as const,
    createdAt: 1_800_000_000_000,
  }));
  for (let i = 0; i < rows.length; i += 400)
    await source.db
      .insertInto('pets')
      .values(rows.slice(i, i + 400))
      .execute();
  const pet = await insertPet(source.db, { name: 'Rex', categoryId: 7, status: 'available', createdAt: 1_800_000_000_000 });
  await insertOrder(source.db, { petId: pet.id, status: 'placed', createdAt: 1_800_000_000_100, updatedAt: 1_800_000_000_100 });
  await numberWaitingEvents(source.db);
  let text = '';
  await exportStore(
    source.db,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    }),
  );
  return { source, text };
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store import into a store that is not free on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let text: string;
    const stores: TestDatabase[] = [];
    before(async () => {
      const made = await exportedStore(dialect);
      stores.push(made.source);
      text = made.text;
    });
    after(async () => {
      for (const store of stores) await store.drop();
    });
    const newStore = async () => {
      const store = await createTestDatabase(dialect);
      stores.push(store);
      return store;
    };

    const holdings: Array<[string, (store: TestDatabase) => Promise<unknown>, RegExp]> = [
      ['a pet', (store) => insertPet(store.db, { name: 'Old', categoryId: 1, status: 'available', createdAt: 1 }), /the target holds 1 pet and 1 event:/],
      [
        'an order alone (its pet removed)',
        async (store) => {
          await insertOrder(store.db, { petId: 99, status: 'placed', createdAt: 1, updatedAt: 1 });
          await sql`delete from events`.execute(store.db);
        },
        /the target holds 1 order:/,
      ],
      ['an api key', (store) => issueApiKey(store.db, { name: 'there' }), /the target holds 1 api key:/],
      ['a webhook endpoint', (store) => insertWebhookEndpoint(store.db, { url: 'https://receiver.example/', now: 1 }), /the target holds 1 webhook endpoint:/],
      [
        'an event alone',
        (store) => store.db.insertInto('events').values({ type: 'pet.deleted', occurredAt: 1, data: '{"id":1}', changed: null }).execute(),
        /the target holds 1 event:/,
      ],
    ];
    for (const [what, put, message] of holdings) {
      it(`import > into a target that holds ${what} > refuses, naming it, and writes nothing`, async () => {
        const target = await newStore();
        await put(target);
        const before = await rowCounts(target);
        const result = await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: text }));
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, message);
        assert.match(result.stderr, /import loads only into an empty store/);
        assert.deepEqual(await rowCounts(target), before);
      });
    }
  });
}

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `animal-store import into an empty store a service is serving on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    let text: string;
    const stores: TestDatabase[] = [];
    before(async () => {
      const made = await exportedStore(dialect);
      stores.push(made.source);
      text = made.text;
    });
    after(async () => {
      await stopAllServices();
      for (const store of stores) await store.drop();
    });

    it('import > while a service started with --no-bootstrap-key serves the empty target > refuses with exit 1 and writes nothing; once it stops, imports', async () => {
      const target = await createTestDatabase(dialect);
      stores.push(target);
      const service = await spawnService({ databaseUrl: target.url });
      const refused = await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: text }));
      assert.equal(refused.code, 1, `${refused.stderr}\nthe service: exit code ${service.process.exitCode}, stderr ${service.stderr()}`);
      assert.match(
        refused.stderr,
        /^animal-store: another process is using the target \(a running service\?\): stop every service of the target, then import again \(nothing was imported\)$/m,
      );
      assert.deepEqual(await rowCounts(target), {
        pets: 0,
        orders: 0,
        api_keys: 0,
        events: 0,
        webhook_endpoints: 0,
        webhook_deliveries: 0,
        webhook_attempts: 0,
      });
      assert.equal((await service.stop()).code, 0);
      const imported = await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: text }));
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal((await rowCounts(target)).pets, 1201);
    });
  });
}

describeOnDialect('sqlite', 'animal-store import into a SQLite store another process has locked', { timeout: SUITE_STUCK_MS }, () => {
  let text: string;
  const stores: TestDatabase[] = [];
  before(async () => {
    const made = await exportedStore('sqlite');
    stores.push(made.source);
    text = made.text;
  });
  after(async () => {
    for (const store of stores) await store.drop();
  });

  it('import > while another process holds the write lock > refuses with exit 1, says the target is in use, and writes nothing', async () => {
    const target = await createTestDatabase('sqlite');
    stores.push(target);
    const holder = await holdSqliteWriteLock(target.url.replace(/^sqlite:/, ''));
    try {
      const result = await target.whileClosed(() => runCli(['import', '-'], { DATABASE_URL: target.url }, { stdin: text }));
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /^animal-store: another process is using the target \(a running service\?\): stop every service of the target, then import again \(nothing was imported\)$/m,
      );
    } finally {
      await holder.release();
    }
    assert.equal((await rowCounts(target)).pets, 0);
  });

  it('serve > while an import holds the store for itself > exits 1 naming the import and the store, not a bare "database is locked"', async () => {
    const target = await createTestDatabase('sqlite');
    stores.push(target);
    const path = target.url.replace(/^sqlite:/, '');
    await target.whileClosed(async () => {
      // What an import holds while it runs (db/sqlite/exclusive-open.ts), held here by the test's own connection.
      const held = holdExclusively(path);
      try {
        const run = await runCli(['serve'], { DATABASE_URL: target.url, PORT: '0' });
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, /^animal-store: database is locked$/m);
        assert.match(
          run.stderr,
          new RegExp(
            `^Another process holds the SQLite store ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} for itself: an animal-store import or restore running`,
            'm',
          ),
        );
      } finally {
        held.close();
      }
    });
  });
});

describeOnPostgres('animal-store import when PostgreSQL ends its connection in the middle', { timeout: SUITE_STUCK_MS }, () => {
  let text: string;
  const stores: TestDatabase[] = [];
  before(async () => {
    const made = await exportedStore('postgres');
    stores.push(made.source);
    text = made.text;
  });
  after(async () => {
    for (const store of stores) await store.drop();
  });

  it('import > when its backend is terminated half way > exits 1, says the database failed and all was rolled back, and writes nothing', async () => {
    const target = await createTestDatabase('postgres');
    stores.push(target);
    const child = spawn(process.execPath, [CLI_PATH, 'import', '-'], {
      cwd: REPO_ROOT,
      env: childEnv({ DATABASE_URL: target.url }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = track(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => {});
    // The first 700 lines: the import has begun, locked the tables and written its first batch.
    const lines = text.split('\n');
    child.stdin.write(`${lines.slice(0, 700).join('\n')}\n`);
    let pid: number | undefined;
    await waitUntil(
      async () => {
        const { rows } = await sql<{ pid: number }>`select pid from pg_locks where relation = 'pets'::regclass and mode = 'ExclusiveLock' and granted`.execute(
          target.db,
        );
        pid = rows[0]?.pid;
        return pid !== undefined;
      },
      { deadlineMs: 20_000, what: 'the import to lock the target' },
    );
    await sql`select pg_terminate_backend(${pid})`.execute(target.db);
    child.stdin.end(lines.slice(700).join('\n'));
    const result = await exited;
    assert.equal(result.code, 1, stderr);
    assert.match(
      stderr,
      /^animal-store: the database failed during the import \(.+\); everything was rolled back \(nothing was imported\): check the database, then import again$/m,
    );
    assert.equal((await rowCounts(target)).pets, 0);
  });
});
