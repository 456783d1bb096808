/**
 * End to end, `animal-store backup` and `restore` on real SQLite files, with the built command
 * and a real service on a real port: a backup taken while four clients create pets holds every
 * pet answered before it began and serves on its own; a restore goes only into an empty, unused
 * store and clears the log files of the store it replaces. On PostgreSQL both commands name the
 * server's own tools and exit 2; they never connect, so that part runs without a server.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { call, createKey, type Pet, unique, uniqueCategory, walk } from '../helpers/cli-e2e.js';
import { runCli, type RunningService, spawnService, stopAllServices, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { describeOnPostgres } from '../helpers/test-db.js';

const folder = mkdtempSync(join(tmpdir(), 'animal-store-backups-'));
after(async () => {
  await stopAllServices();
  rmSync(folder, { recursive: true, force: true });
});

const urlOf = (name: string) => `sqlite:${join(folder, name)}`;

/** What SQLite's integrity check says of a file, and the ids of the pets it holds. */
function inspect(path: string): { integrity: string; petIds: number[] } {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join('; ');
    return { integrity, petIds: db.prepare('select id from pets order by id').pluck().all() as number[] };
  } finally {
    db.close();
  }
}

/** Clients that create pets, one at a time each, until stopped; `acknowledged` holds every pet answered 201 so far. */
function petWriters(service: RunningService, key: string, clients: number) {
  const acknowledged: Pet[] = [];
  let running = true;
  const failures: string[] = [];
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const answer = await call(service, 'POST', '/v1/pets', { key, body: { name: unique('pet'), categoryId: uniqueCategory() } });
      if (answer.status === 201) acknowledged.push(answer.body as Pet);
      else failures.push(`${answer.status} ${answer.text}`);
    }
  });
  return {
    acknowledged,
    async stop() {
      running = false;
      await Promise.all(loops);
      return failures;
    },
  };
}

describe('animal-store backup > while 4 clients create pets on a serving SQLite store', { timeout: SUITE_STUCK_MS }, () => {
  const storeUrl = urlOf('live/store.db');
  const backupPath = join(folder, 'backups/live.db');
  let key: string;
  let acknowledgedBefore: Pet[];
  let backupRun: Awaited<ReturnType<typeof runCli>>;

  it('exits 0 and says what it copied, how big and how long, while the writes go on', async () => {
    key = await createKey(storeUrl);
    const service = await spawnService({ databaseUrl: storeUrl });
    const writers = petWriters(service, key, 4);
    while (writers.acknowledged.length < 100) await new Promise((resolve) => setTimeout(resolve, 20));
    acknowledgedBefore = [...writers.acknowledged];
    backupRun = await runCli(['backup', backupPath], { DATABASE_URL: storeUrl });
    const answeredWhileBackingUp = writers.acknowledged.length - acknowledgedBefore.length;
    // Writes go on after the backup too: it held no lock that stopped them.
    const afterBackup = writers.acknowledged.length;
    while (writers.acknowledged.length < afterBackup + 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(await writers.stop(), [], 'every create answered 201');
    await service.stop();
    assert.equal(backupRun.code, 0, backupRun.stderr);
    assert.ok(answeredWhileBackingUp > 0, 'no create was answered while the backup ran');
    assert.match(backupRun.stderr, new RegExp(`^Backed up sqlite:${join(folder, 'live/store.db')} to ${backupPath}: \\d+ bytes in \\d+\\.\\d\\d s\\.\\n$`));
  });

  it('holds every pet acknowledged before it began, and passes the integrity check', () => {
    const { integrity, petIds } = inspect(backupPath);
    assert.equal(integrity, 'ok');
    const ids = new Set(petIds);
    assert.deepEqual(
      acknowledgedBefore.filter((pet) => !ids.has(pet.id)).map((pet) => pet.id),
      [],
      'pets answered 201 before the backup began and missing from it',
    );
  });

  it('is readable and writable by its owner only (mode 0600), and leaves no temporary file', () => {
    assert.equal(statSync(backupPath).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(join(folder, 'backups')).filter((name) => name !== 'live.db'),
      [],
    );
  });

  it('serves on its own: /readyz answers 200 and the original key lists those pets', async () => {
    const onBackup = await spawnService({ databaseUrl: `sqlite:${backupPath}` });
    try {
      assert.equal((await call(onBackup, 'GET', '/readyz')).status, 200);
      const listed = new Set((await walk(onBackup, key, '/v1/pets?limit=100')).pets.map((pet) => pet.id));
      assert.deepEqual(
        acknowledgedBefore.filter((pet) => !listed.has(pet.id)).map((pet) => pet.id),
        [],
      );
    } finally {
      assert.equal((await onBackup.stop()).code, 0);
    }
  });
});

describe('animal-store backup > to a file that exists', { timeout: SUITE_STUCK_MS }, () => {
  const storeUrl = urlOf('existing/store.db');
  const target = join(folder, 'existing/backup.db');

  before(async () => {
    await createKey(storeUrl);
    writeFileSync(target, 'keep me');
  });

  it('is refused with exit 1, naming the file and --force, and leaves the file as it was', async () => {
    const run = await runCli(['backup', target], { DATABASE_URL: storeUrl });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, `animal-store backup: ${target} exists; choose a new file, or add --force to replace it\n`);
    assert.equal(readFileSync(target, 'utf8'), 'keep me');
  });

  it('that is the store itself, even with --force > is refused with exit 1, and the store is left as it was', async () => {
    const storePath = join(folder, 'existing/store.db');
    const run = await runCli(['backup', storePath, '--force'], { DATABASE_URL: storeUrl });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, `animal-store backup: ${storePath} is the store itself; choose another file\n`);
    assert.equal(inspect(storePath).integrity, 'ok');
  });

  it('with --force > replaces it with a sound backup', async () => {
    const run = await runCli(['backup', target, '--force'], { DATABASE_URL: storeUrl });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(inspect(target).integrity, 'ok');
  });
});

describe('animal-store restore', { timeout: SUITE_STUCK_MS }, () => {
  const sourceUrl = urlOf('restore/source.db');
  const backupPath = join(folder, 'restore/backup.db');
  let key: string;
  let pets: Pet[];

  before(async () => {
    key = await createKey(sourceUrl);
    const service = await spawnService({ databaseUrl: sourceUrl });
    pets = [];
    for (let n = 0; n < 3; n++) {
      const answer = await call(service, 'POST', '/v1/pets', { key, body: { name: unique('pet'), categoryId: uniqueCategory() } });
      assert.equal(answer.status, 201, answer.text);
      pets.push(answer.body as Pet);
    }
    const run = await runCli(['backup', backupPath], { DATABASE_URL: sourceUrl });
    assert.equal(run.code, 0, run.stderr);
    await service.stop();
  });

  it('into an absent store, beside stale -wal and -shm files > removes them, and the service starts on it with the pets and the key', async () => {
    const target = join(folder, 'restore/absent/store.db');
    rmSync(join(folder, 'restore/absent'), { recursive: true, force: true });
    // What a store that was deleted without its log files leaves behind.
    mkdirSync(join(folder, 'restore/absent'));
    writeFileSync(`${target}-wal`, 'stale log of another store');
    writeFileSync(`${target}-shm`, 'stale index of another store');
    const run = await runCli(['restore', backupPath], { DATABASE_URL: `sqlite:${target}` });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^Restored .* \(18 migrations\) to sqlite:.*store\.db\. Start the service on it: /);
    assert.equal(existsSync(`${target}-wal`), false, 'the stale -wal is gone');
    assert.equal(existsSync(`${target}-shm`), false, 'the stale -shm is gone');
    assert.equal(statSync(target).mode & 0o777, 0o600);
    const service = await spawnService({ databaseUrl: `sqlite:${target}` });
    try {
      assert.equal((await call(service, 'GET', '/readyz')).status, 200);
      const listed = (await walk(service, key, '/v1/pets')).pets.map((pet) => pet.id);
      assert.deepEqual(
        listed,
        pets.map((pet) => pet.id),
      );
    } finally {
      assert.equal((await service.stop()).code, 0);
    }
  });

  it('into a store that holds data > is refused with exit 1, naming what it holds, and leaves it as it was', async () => {
    const run = await runCli(['restore', backupPath], { DATABASE_URL: sourceUrl });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(
      run.stderr,
      `animal-store restore: ${join(folder, 'restore/source.db')} is not empty (it holds 3 pet(s), 1 API key(s), 3 event(s)): restore into an empty or absent store, or move this one away first\n`,
    );
    assert.equal(inspect(join(folder, 'restore/source.db')).petIds.length, 3);
  });

  it('into an empty store a service has open > is refused with exit 1, saying it is in use', async () => {
    const target = join(folder, 'restore/in-use.db');
    const service = await spawnService({ databaseUrl: `sqlite:${target}` });
    try {
      const run = await runCli(['restore', backupPath], { DATABASE_URL: `sqlite:${target}` });
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stderr, `animal-store restore: ${target} is in use by another process (a running service?): stop it, then restore\n`);
      assert.equal((await call(service, 'GET', '/readyz')).status, 200);
    } finally {
      assert.equal((await service.stop()).code, 0);
    }
    assert.deepEqual(inspect(target).petIds, [], 'the store is left as it was');
    // Once the service has stopped, the same empty store takes the backup.
    const again = await runCli(['restore', backupPath], { DATABASE_URL: `sqlite:${target}` });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(
      inspect(target).petIds,
      pets.map((pet) => pet.id),
    );
  });

  it('of a file that is no store > is refused with exit 1, saying so', async () => {
    const notAStore = join(folder, 'restore/not-a-store.db');
    writeFileSync(notAStore, 'x'.repeat(4096));
    const run = await runCli(['restore', notAStore], { DATABASE_URL: urlOf('restore/never.db') });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^animal-store restore: .*not-a-store\.db is not a SQLite store \(file is not a database\)\n$/);
    assert.equal(existsSync(join(folder, 'restore/never.db')), false);
  });

  it('of a store from a newer release > is refused with exit 1, naming the unknown migration', async () => {
    const newer = join(folder, 'restore/newer.db');
    copyFileSync(backupPath, newer);
    const db = new SQLite(newer);
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('2099-01-01T00-from-the-future', new Date().toISOString());
    db.close();
    const run = await runCli(['restore', newer], { DATABASE_URL: urlOf('restore/never.db') });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /comes from a newer release \(migration 2099-01-01T00-from-the-future is unknown to this one\)/);
  });
});

describe('animal-store backup and restore > on PostgreSQL', () => {
  // Neither command connects: an unresolvable host shows it, and a password shows it is never printed.
  const env = { DATABASE_URL: 'postgres://store_owner:s3cret-pa55@db.invalid:6543/petstore' };

  for (const command of ['backup', 'restore'] as const) {
    it(`${command} > exits 2, names pg_dump and pg_restore for this host, port, user and database, never the password`, async () => {
      const run = await runCli([command, 'store.dump'], env);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.startsWith(`animal-store ${command} works on a SQLite store; this one is on PostgreSQL (db.invalid:6543/petstore).`), run.stderr);
      assert.ok(run.stderr.includes('pg_dump -Fc -h db.invalid -p 6543 -U store_owner -d petstore -f store.dump'), run.stderr);
      assert.ok(run.stderr.includes('pg_restore --no-owner -h db.invalid -p 6543 -U store_owner -d petstore store.dump'), run.stderr);
      assert.ok(run.stderr.includes('`animal-store export` and `import`'), run.stderr);
      assert.ok(!run.stderr.includes('s3cret'), 'the password is shown');
    });
  }
});

describeOnPostgres('animal-store backup and restore > on the test PostgreSQL server', { timeout: SUITE_STUCK_MS }, () => {
  it('both > exit 2 with its host, port and database in the pg_dump line, and a password given in the URL never shown', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.password = 'never-shown-pa55';
    const port = url.port || '5432';
    const database = url.pathname.slice(1);
    for (const command of ['backup', 'restore']) {
      const run = await runCli([command, 'store.dump'], { DATABASE_URL: url.href });
      assert.equal(run.code, 2, run.stderr);
      assert.ok(
        run.stderr.includes(`pg_dump -Fc -h ${url.hostname} -p ${port} -U ${decodeURIComponent(url.username)} -d ${database} -f store.dump`),
        run.stderr,
      );
      assert.ok(!run.stderr.includes('never-shown-pa55'), run.stderr);
    }
  });
});
