/**
 * db/sqlite/wal-index-changes.ts: the WAL-index header read from the `-shm` file moves whenever
 * `PRAGMA data_version` would, for commits of another process and of another connection, across
 * a checkpoint that restarts the WAL, and stays still while nothing is committed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { sqliteConnection, type SqliteConnection } from '../../../src/db/sqlite/statements.js';
import { walIndexChanges } from '../../../src/db/sqlite/wal-index-changes.js';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** Runs SQL in a process of its own, as another instance or `keys create` would. */
function inAnotherProcess(file: string, sql: string): void {
  const script = `const Db = require(${JSON.stringify(BETTER_SQLITE3)}); const db = new Db(${JSON.stringify(file)}); db.exec(${JSON.stringify(sql)}); db.close();`;
  execFileSync(process.execPath, ['-e', script], { stdio: 'inherit' });
}

describe('the WAL-index change counter (SQLite)', () => {
  let dir: string;
  let file: string;
  let sqlite: Sqlite.Database;
  let connection: SqliteConnection;
  /** Another connection of this process, which shares the process's mapping of the -shm. */
  let other: Sqlite.Database;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'animal-store-wal-index-'));
    file = join(dir, 'db.sqlite');
    sqlite = new Sqlite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table t (a integer)');
    connection = sqliteConnection(sqlite);
    other = new Sqlite(file);
  });
  after(() => {
    other.close();
    connection.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const dataVersion = () => sqlite.prepare('pragma data_version').pluck().get() as number;

  it('the version > stays the same while nothing is committed', () => {
    const version = connection.version.current();
    assert.equal(connection.version.current(), version);
    sqlite.prepare('select count(*) from t').get();
    assert.equal(connection.version.current(), version);
  });

  it('the version > moves after another process commits, as data_version does', () => {
    const [version, pragma] = [connection.version.current(), dataVersion()];
    inAnotherProcess(file, 'insert into t values (1)');
    assert.notEqual(dataVersion(), pragma, 'SQLite itself saw the commit');
    const after = connection.version.current();
    assert.notEqual(after, version);
    assert.equal(connection.version.current(), after, 'and then stays');
  });

  it('the version > moves after another connection of this process commits', () => {
    const version = connection.version.current();
    other.prepare('insert into t values (2)').run();
    assert.notEqual(connection.version.current(), version);
  });

  it('the version > moves for a commit after a checkpoint restarted the WAL', () => {
    other.pragma('wal_checkpoint(TRUNCATE)');
    const version = connection.version.current();
    inAnotherProcess(file, 'insert into t values (3)');
    assert.notEqual(connection.version.current(), version);
  });

  it('the counter > reads nothing for a database without a -shm file', () => {
    assert.equal(walIndexChanges(join(dir, 'missing.sqlite')), undefined);
  });
});
