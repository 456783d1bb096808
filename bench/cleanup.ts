/**
 * Clean-up: every resource the bench starts or creates (servers, load generator, folders, the
 * PostgreSQL schema) registers its release here as soon as it exists, and is released on the
 * normal path, on a failure, on SIGINT/SIGTERM, and (synchronously, as a last resort) at exit.
 */
import type { ChildProcess } from 'node:child_process';
import { log } from './settings.js';

const cleanups: Array<{ label: string; run: () => Promise<void>; sync: () => void }> = [];

export function onCleanup(label: string, run: () => Promise<void>, sync: () => void = () => {}): () => Promise<void> {
  const entry = { label, run, sync };
  cleanups.push(entry);
  // Releasing early (the normal path) removes the entry, so it runs once.
  return async () => {
    const index = cleanups.indexOf(entry);
    if (index === -1) return;
    cleanups.splice(index, 1);
    await entry.run();
  };
}

/** Available pets seeded per second of a placeOrder run (each order takes another one). */
export async function cleanupAll(): Promise<void> {
  while (cleanups.length > 0) {
    const entry = cleanups.pop()!;
    try {
      await entry.run();
    } catch (error) {
      log(`clean-up "${entry.label}" failed: ${(error as Error).message}`);
    }
  }
}

// Last resort when the process exits without the async path (uncaught error, process.exit).
process.on('exit', () => {
  for (const entry of cleanups.reverse()) {
    try {
      entry.sync();
    } catch {
      // nothing more can be done here
    }
  }
});

let interrupted = false;

/** Whether SIGINT or SIGTERM stopped the run (its clean-up then exits the process itself). */
export function wasInterrupted(): boolean {
  return interrupted;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping and cleaning up`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

/** A started child process that is stopped (SIGTERM, then SIGKILL) by the clean-up. */
export function ownChild(child: ChildProcess, label: string): { exited: Promise<number | null>; stop: () => Promise<void> } {
  const exited = new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });
  const release = onCleanup(
    `stop ${label} pid ${child.pid}`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
    () => void child.kill('SIGKILL'),
  );
  return { exited, stop: release };
}
