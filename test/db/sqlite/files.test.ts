import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createDb } from '../../../src/db/create-db.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { holdExclusively } from '../../../src/db/sqlite/exclusive-open.js';
import { issueApiKey } from '../../../src/keys/keys.service.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('SQLite files', () => {
  const root = mkdtempSync(join(tmpdir(), 'animal-store-modes-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a database in a folder that does not exist yet > is made owner-only: folder 0700, file, -wal and -shm 0600', async () => {
    const path = join(root, 'new', 'data', 'store.db');
    const handle = createDb(`sqlite:${path}`);
    try {
      await migrateToLatest(handle.db);
      await issueApiKey(handle.db, { name: 'makes the -wal file hold a write' });
      assert.ok(existsSync(`${path}-wal`) && existsSync(`${path}-shm`));
      assert.equal(modeOf(join(root, 'new')).toString(8), '700');
      assert.equal(modeOf(join(root, 'new', 'data')).toString(8), '700');
      for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(modeOf(file).toString(8), '600', file);
    } finally {
      await handle.close();
    }
  });

  it('a database file that already exists > keeps the mode its owner chose', async () => {
    const path = join(root, 'existing.db');
    writeFileSync(path, '');
    chmodSync(path, 0o640);
    const handle = createDb(`sqlite:${path}`);
    try {
      await migrateToLatest(handle.db);
      assert.equal(modeOf(path).toString(8), '640');
    } finally {
      await handle.close();
    }
  });
  it('a handle closed before any query ran > lets the file go: another connection may then hold it exclusively (as import does)', async () => {
    const path = join(root, 'closed-unused.db');
    const made = createDb(`sqlite:${path}`);
    await migrateToLatest(made.db);
    await made.close();
    const unused = createDb(`sqlite:${path}`);
    await unused.close();
    holdExclusively(path).close();
  });
});
