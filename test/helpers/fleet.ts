/**
 * `startFleet()`: several real `animal-store serve` processes on one database, as behind a load
 * balancer, for the multi-instance end-to-end suites. It makes the database (migrated first unless
 * the instances must race to migrate it), starts the instances together, waits for every worker of
 * `--workers` to listen, and makes a key with the CLI. `stop()` is for `after` hooks.
 */
import assert from 'node:assert/strict';
import type { DialectName } from '../../src/db/database-url.js';
import type { ExtraEnv } from './child-processes.js';
import { type RunningService, runCli, spawnService, stopAllServices, waitForListeningProcesses } from './spawn-service.js';
import { createEmptyDatabaseUrl } from './test-db.js';

export interface FleetOptions {
  dialect: DialectName;
  /** How many processes to start (each `--workers` primary counts as one); 3 by default. */
  instances?: number;
  /** `--workers N` for every instance; the fleet resolves once all N of each listen. */
  workers?: number;
  env?: ExtraEnv;
  /** Run `migrate` before the instances start (the default); false lets them race to migrate an empty database. */
  migrateFirst?: boolean;
  /** The name of the key made with the CLI once they run. */
  keyName?: string;
}

export interface Fleet {
  databaseUrl: string;
  instances: RunningService[];
  /** A key made with the CLI for this fleet. */
  key: string;
  /** The instance for the i-th request: round robin (the workers of one instance share its port). */
  at(i: number): RunningService;
  /** Stops every instance and removes the database. */
  stop(): Promise<void>;
}

/** `keys create --name <name>` with the CLI: the new key's id and plaintext. */
export async function makeKey(databaseUrl: string, name: string, env: ExtraEnv = {}): Promise<{ id: number; key: string }> {
  const created = await runCli(['keys', 'create', '--name', name], { DATABASE_URL: databaseUrl, ...env });
  assert.equal(created.code, 0, created.stderr);
  return { id: Number(/Created key (\d+)/.exec(created.stderr)?.[1]), key: created.stdout.trim().split('\n').at(-1)! };
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const place = await createEmptyDatabaseUrl(options.dialect);
  const stop = async () => {
    await stopAllServices();
    await place.remove();
  };
  try {
    if (options.migrateFirst ?? true) {
      const migrated = await runCli(['migrate'], { DATABASE_URL: place.url });
      assert.equal(migrated.code, 0, migrated.stderr);
    }
    const args = ['serve', '--no-bootstrap-key', ...(options.workers ? ['--workers', String(options.workers)] : [])];
    const instances = await Promise.all(Array.from({ length: options.instances ?? 3 }, () => spawnService({ databaseUrl: place.url, args, env: options.env })));
    if (options.workers) await Promise.all(instances.map((instance) => waitForListeningProcesses(instance, options.workers!)));
    const { key } = await makeKey(place.url, options.keyName ?? 'fleet');
    return { databaseUrl: place.url, instances, key, at: (i) => instances[i % instances.length]!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
