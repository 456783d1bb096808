/**
 * The `backup` and `restore` commands: the store DATABASE_URL names, the one-line summaries,
 * and the exit codes (0 done, 1 refused or failed, 2 on PostgreSQL, whose own tools do this).
 */
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { dialectOf, locationOf, sqlitePathOf } from '../db/database-url.js';
import { backupSqliteStore, BackupRefused } from './backup.js';
import { postgresAdvice } from './postgres-advice.js';
import { restoreSqliteStore } from './restore.js';

export function backupCommand(command: 'backup' | 'restore', config: Config, file: string, options: { force: boolean }): number {
  const url = config.databaseUrl;
  if (dialectOf(url) === 'postgres') {
    process.stderr.write(`${postgresAdvice(command, url, file)}\n`);
    return 2;
  }
  const storePath = sqlitePathOf(url);
  if (storePath === ':memory:') {
    process.stderr.write(`animal-store ${command}: DATABASE_URL names an in-memory store, which no other process can see\n`);
    return 2;
  }
  const path = resolve(file);
  try {
    if (command === 'backup') {
      const { bytes, seconds } = backupSqliteStore(storePath, path, { force: options.force, lockWaitMs: config.databaseStatementTimeoutMs });
      process.stderr.write(`Backed up ${locationOf(url)} to ${path}: ${bytes} bytes in ${seconds.toFixed(2)} s.\n`);
    } else {
      const { migrations } = restoreSqliteStore(path, storePath);
      process.stderr.write(
        `Restored ${path} (${migrations} migrations) to ${locationOf(url)}. Start the service on it: DATABASE_URL=${url} animal-store serve\n`,
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof BackupRefused)) throw error;
    process.stderr.write(`animal-store ${command}: ${error.message}\n`);
    return 1;
  }
}
