/**
 * Another process holding a SQLite file's write lock, as `keys create`, a backup or another
 * worker may. It must be a real process: a second connection in the test process would share
 * the event loop whose freedom the tests check.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { REPO_ROOT } from './spawn-service.js';

export interface SqliteLockHolder {
  /** Commits the holder's (empty) transaction, which frees the lock, and waits for the process to end. */
  release(): Promise<void>;
}

// Plain CommonJS for `node -e`: no loader needed, and it starts fast.
const HOLDER_SCRIPT = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN EXCLUSIVE');
process.stdout.write('locked\\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.exit(0);
});
`;

/** Starts a process that takes the write lock of the SQLite file at `path` and resolves once it holds it. */
export async function holdSqliteWriteLock(path: string): Promise<SqliteLockHolder> {
  const child = spawn(process.execPath, ['-e', HOLDER_SCRIPT, path], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  // Whatever happens to the test, the holder must not outlive it with the lock, nor keep the
  // test process alive when a failed test never released it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // Referenced only while this module awaits the child (its start, its exit): otherwise nothing
  // may keep the event loop alive meanwhile, and node:test ends the test as "still pending".
  const reference = (on: boolean) => {
    for (const handle of [child, child.stdin, child.stdout] as unknown as { ref?: () => void; unref?: () => void }[]) {
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  };
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('locked\n')) resolve();
    });
    void exited.then(([code]) => reject(new Error(`the lock holder exited with ${String(code)} before taking the lock`)));
  });
  reference(false);
  return {
    async release() {
      reference(true);
      child.stdin.end('release\n');
      const [code] = (await exited) as [number | null];
      process.off('exit', killOnExit);
      if (code !== 0) throw new Error(`the lock holder exited with ${String(code)}`);
    },
  };
}
