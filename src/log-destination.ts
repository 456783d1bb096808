/**
 * Where the service's log lines (and the CLI's printed text) go, and what happens once nobody
 * reads them. With `serve | head -2`, every write to standard output fails (EPIPE) after `head`
 * exits. pino's default writer is asynchronous and, at exit, flushes what is pending in a loop
 * that retries that failure forever: the process stopped listening but never exited, and the
 * SHUTDOWN_TIMEOUT_MS force-exit could not fire in the blocked loop. So log lines are written
 * synchronously, as console output is (nothing is left to flush at exit), and after EPIPE they are
 * dropped, like anything else printed to a closed stdout or stderr.
 *
 * Lines are gathered up to 4 KiB, and written at least every LOG_FLUSH_MS and at exit: a
 * write(2) per line was the largest cost of serving a cached page (8 % of the busy time, and 4 %
 * more sleeping when the reader of the pipe lagged; docs/performance.md). A line reaches the
 * log at most LOG_FLUSH_MS late; a SIGKILL loses at most that much.
 */
import { pino } from 'pino';

/** The longest a log line waits to be written. */
const LOG_FLUSH_MS = 200;
const LOG_BUFFER_BYTES = 4096;

let stdoutDestination: ReturnType<typeof pino.destination> | undefined;

/** The process's one writer to standard output (its buffer is flushed once, at exit). */
export function stdoutLogDestination(): pino.DestinationStream {
  if (stdoutDestination) return stdoutDestination;
  const destination = pino.destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nobody reads standard output any more: the lines are dropped, as above.
    }
  });
  stdoutDestination = destination;
  return destination;
}

/** A reader that went away must neither crash the process nor block it: later output is dropped. */
export function dropOutputToClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
