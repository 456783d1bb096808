/**
 * Where the service's log lines (and the CLI's printed text) go, and what happens once nobody
 * reads them. With `serve | head -2`, every write to standard output fails (EPIPE) after `head`
 * exits. pino's default writer is asynchronous and, at exit, flushes what is pending in a loop
 * that retries that failure forever: the process stopped listening but never exited, and the
 * SHUTDOWN_TIMEOUT_MS force-exit could not fire in the blocked loop. So log lines are written
 * synchronously, as console output is (nothing is left to flush at exit), and after EPIPE they are
 * dropped, like anything else printed to a closed stdout or stderr.
 */
import { pino } from 'pino';

export function stdoutLogDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}

/** A reader that went away must neither crash the process nor block it: later output is dropped. */
export function dropOutputToClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
