/**
 * The restore's one moment of danger: a service that opens the target after the restore checked
 * it is unused, before the rename puts the backup in its place. It must never go on with the old
 * store (its writes would go to a file nobody else sees, and its -wal would be taken for the new
 * store's): its first read fails, and every later opener finds the backup. A real SQLite
 * connection opens the target in that moment (the restore's hook); the files are real.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { backupSqliteStore } from '../../src/backups/backup.js';
import { restoreSqliteStore } from '../../src/backups/restore.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { insertPet } from '../../src/pets/pets.repository.js';

const folder = mkdtempSync(join(tmpdir(), 'animal-store-restore-race-'));
after(() => rmSync(folder, { recursive: true, force: true }));

async function migratedStore(path: string, pets: number): Promise<void> {
  const handle = createDb(`sqlite:${path}`, { statementTimeoutMs: 5000 });
  try {
    await migrateToLatest(handle.db);
    for (let i = 0; i < pets; i++) await insertPet(handle.db, { name: `Rex ${i}`, categoryId: 1, status: 'available', createdAt: 1_800_000_000_000 });
  } finally {
    await handle.close();
  }
}

describe('restoreSqliteStore > when a service opens the empty target between the check and the rename', () => {
  it('its first read fails ("file is not a database"), and a new connection finds the backup', async () => {
    const source = join(folder, 'source.db');
    const backup = join(folder, 'backup.db');
    const target = join(folder, 'target.db');
    await migratedStore(source, 3);
    backupSqliteStore(source, backup, { force: false, lockWaitMs: 1000 });
    await migratedStore(target, 0);

    let late: SQLite.Database | undefined;
    restoreSqliteStore(backup, target, {
      beforeReplace: () => {
        late = new SQLite(target, { timeout: 2000 });
      },
    });
    try {
      assert.throws(() => late!.prepare('select count(*) from pets').pluck().get(), { code: 'SQLITE_NOTADB' });
    } finally {
      late!.close();
    }
    const fresh = new SQLite(target, { fileMustExist: true });
    try {
      assert.equal(fresh.prepare('select count(*) from pets').pluck().get(), 3);
      assert.equal((fresh.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check, 'ok');
    } finally {
      fresh.close();
    }
    assert.equal(existsSync(`${target}-journal`), false);
  });
});

describe('restoreSqliteStore > when a store appears at an absent target during the restore', () => {
  it('is refused, and the store that appeared is left as it was', async () => {
    const source = join(folder, 'source2.db');
    const backup = join(folder, 'backup2.db');
    const target = join(folder, 'absent.db');
    await migratedStore(source, 2);
    backupSqliteStore(source, backup, { force: false, lockWaitMs: 1000 });
    assert.throws(
      () =>
        restoreSqliteStore(backup, target, {
          beforeReplace: () => {
            // A service creating its store here: a real SQLite file, made synchronously.
            new SQLite(target).exec('create table made_by_service (x)').close();
          },
        }),
      /a store appeared at .*absent\.db during the restore \(a service starting\?\): stop it, then restore/,
    );
    const kept = new SQLite(target, { fileMustExist: true });
    try {
      assert.deepEqual(kept.prepare("select name from sqlite_master where type = 'table'").pluck().all(), ['made_by_service']);
    } finally {
      kept.close();
    }
  });
});
