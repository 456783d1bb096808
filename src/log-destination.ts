/**
 * Where the service's log lines go (standard output), and what happens when the output cannot
 * take them. Logs are worth less than the service: a line is never waited for.
 *
 * - A reader that stops reading (`serve | sleep 400`, a log shipper that hangs) fills the pipe.
 *   pino's synchronous writer then retried every 100 ms on the event loop, forever: no request,
 *   not even /healthz, was answered again, and SIGTERM could not end the process. Here a write
 *   the output refuses (EAGAIN: the pipe is full) drops the lines it held; they are counted
 *   (`animal_store_log_lines_dropped_total`), and the first write that goes through again begins
 *   with one line saying how many were dropped.
 * - A reader that went away (`serve | head -2`: EPIPE) takes no more lines: every later line is
 *   dropped and counted, and nothing is retried. An asynchronous writer would instead have kept
 *   the lines in memory and, at exit, retried that failure forever.
 *
 * Writes are synchronous and non-blocking, so a line is never left in memory beyond the batch:
 * lines are gathered up to 4 KiB, and written at least every LOG_FLUSH_MS and at exit (one write
 * per line was the largest cost of serving a cached page; docs/performance.md). A line reaches
 * the log at most LOG_FLUSH_MS late; a SIGKILL loses at most that much; the write at exit is one
 * attempt, which a full pipe refuses at once, so it cannot hang the exit.
 *
 * With `--workers N`, the primary and every worker write to the same pipe, each through its own
 * writer: each drops, counts and reports its own lines. No write is longer than PIPE_BUF (4 KiB),
 * which a pipe takes whole or refuses whole: a longer one was taken in part when the pipe was
 * nearly full, another process's lines went in before its rest, and both lines were cut. (Only a
 * single line longer than that is written alone, and may still be taken in part.)
 *
 * Non-blocking must hold for each process whatever the others do, and O_NONBLOCK on standard
 * output itself does not: it belongs to the open file, which the primary and its workers share,
 * and every fork (libuv makes an inherited stdio descriptor blocking for the child) and every
 * exit (Node restores the flags the process started with) may clear it. A worker that stopped
 * thus made the primary block on a full pipe, and SIGTERM never ended it. So when standard output
 * is a pipe, each process opens the pipe anew (`/proc/self/fd/1`, Linux), non-blocking, for
 * itself alone.
 */
import { constants, fstatSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** The longest a log line waits to be written (quoted in docs/operations.md: test/log-destination.test.ts). */
export const LOG_FLUSH_MS = 200;
/** Lines are gathered up to this many bytes before a write. */
export const LOG_BUFFER_BYTES = 4096;
/** Write errors after which the output takes nothing more: no later write is tried. */
const LASTING_WRITE_ERRORS = new Set(['EPIPE', 'EBADF', 'EINVAL', 'ECONNRESET', 'ENOTCONN', 'EDESTADDRREQ']);
/** The longest write a pipe takes whole or not at all (POSIX PIPE_BUF; 4096 on Linux). */
const PIPE_BUF = 4096;

/** The `msg` of the line that says how many lines were dropped. */
export const DROPPED_LINES_MESSAGE = 'log lines dropped: standard output could not take them';
/** pino's level number for `warn`: the summary line is a warning like the service's own. */
const WARN_LEVEL = 40;

export interface DroppingLineWriterOptions {
  /** Bytes gathered before a write; LOG_BUFFER_BYTES by default. */
  batchBytes?: number;
  /** The longest a line waits to be written; LOG_FLUSH_MS by default. */
  flushMs?: number;
  /** The clock of the summary line's `time`, in epoch milliseconds. */
  now?: () => number;
}

/**
 * A pino destination that writes whole lines to a non-blocking file descriptor and drops them
 * when the descriptor cannot take them. The descriptor MUST be non-blocking (a pipe or socket
 * with O_NONBLOCK, or a file): on a blocking pipe a write waits for the reader, the very freeze
 * this writer exists to prevent.
 */
export class DroppingLineWriter {
  /** Lines dropped since this writer was made. */
  dropped = 0;
  /** Lines dropped since the last summary line went out. */
  private unreported = 0;
  private batch = '';
  private batchLines = 0;
  /** The batch's length in bytes (UTF-8), which the write's size is. */
  private batchSize = 0;
  /** The rest of a write the output took only in part: finished before anything else, so no line is cut. */
  private unfinished: Buffer | undefined;
  /** The reader went away (EPIPE) or the descriptor is unusable: no more writes are tried. */
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly batchBytes: number;
  private readonly flushMs: number;
  private readonly now: () => number;
  private readonly base: string;

  constructor(
    private readonly fd: number,
    options: DroppingLineWriterOptions = {},
  ) {
    this.batchBytes = Math.min(options.batchBytes ?? LOG_BUFFER_BYTES, PIPE_BUF);
    this.flushMs = options.flushMs ?? LOG_FLUSH_MS;
    this.now = options.now ?? Date.now;
    // The fields pino puts on each of the service's lines, so the summary reads like them.
    this.base = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  }

  /** Takes one log line (pino writes each line, with its newline, in one call). */
  write(line: string): boolean {
    if (this.closed) {
      this.drop(1);
      return true;
    }
    const size = Buffer.byteLength(line);
    // A write never passes PIPE_BUF, so a pipe never takes one in part (see the header).
    if (this.batchLines > 0 && this.batchSize + size > this.batchBytes) this.flush();
    this.batch += line;
    this.batchLines++;
    this.batchSize += size;
    if (this.batchSize >= this.batchBytes) this.flush();
    else this.armTimer();
    return true;
  }

  /**
   * Writes what is gathered, in one attempt that never waits: what the output refuses is dropped
   * (a partly written line is kept, to be finished first at the next attempt). `done`, for
   * pino's logger.flush(cb), is called once the attempt is over.
   */
  flush(done?: () => void): void {
    this.attempt();
    done?.();
  }

  private attempt(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.closed && this.unfinished && this.writeOut(this.unfinished) !== 'all') {
      this.dropBatch();
      this.armTimer();
      return;
    }
    if (this.closed) {
      this.unfinished = undefined;
      this.dropBatch();
      return;
    }
    const summary = this.unreported > 0 ? Buffer.from(this.summaryLine(this.unreported)) : undefined;
    if (summary === undefined && this.batch === '') return;
    const lines = this.batchLines;
    const batch = Buffer.from(this.batch);
    this.batch = '';
    this.batchLines = 0;
    this.batchSize = 0;
    if (summary && summary.length + batch.length > PIPE_BUF) {
      // Two writes, each whole or not at all: the summary first.
      const written = this.writeOut(summary);
      if (written !== 'none') this.unreported = 0;
      if (written !== 'all') this.drop(lines);
      else if (lines > 0 && this.writeOut(batch) === 'none') this.drop(lines);
    } else if (this.writeOut(summary ? Buffer.concat([summary, batch]) : batch) === 'none') {
      this.drop(lines);
    } else if (summary) {
      this.unreported = 0;
    }
    this.armTimer();
  }

  /** pino's name for a synchronous flush (pino.final). */
  flushSync(): void {
    this.flush();
  }

  private summaryLine(count: number): string {
    return `{"level":${WARN_LEVEL},"time":${this.now()},${this.base},"droppedLines":${count},"msg":${JSON.stringify(DROPPED_LINES_MESSAGE)}}\n`;
  }

  /** One write(2): 'all' written, 'part' (the rest kept in `unfinished`), or 'none' (refused). */
  private writeOut(bytes: Buffer): 'all' | 'part' | 'none' {
    let written: number;
    try {
      written = writeSync(this.fd, bytes);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Only a reader that is gone (EPIPE, a socket's reset) or an unusable descriptor lasts. Anything
      // else may pass: a full pipe (EAGAIN), a full disk (ENOSPC, EDQUOT) that a log rotation
      // empties; the next batch tries again (one write(2) each), and the rest of a line cut by the
      // full disk is written first, so the file gets no cut line.
      if (code !== undefined && LASTING_WRITE_ERRORS.has(code)) this.closed = true;
      return 'none';
    }
    if (written >= bytes.length) {
      this.unfinished = undefined;
      return 'all';
    }
    this.unfinished = bytes.subarray(written);
    return 'part';
  }

  private dropBatch(): void {
    this.drop(this.batchLines);
    this.batch = '';
    this.batchLines = 0;
    this.batchSize = 0;
  }

  private drop(lines: number): void {
    this.dropped += lines;
    if (!this.closed) this.unreported += lines;
  }

  /** Another attempt later while anything waits to go out: lines, the rest of one, or a summary. */
  private armTimer(): void {
    if (this.timer || this.closed) return;
    if (this.batch === '' && !this.unfinished && this.unreported === 0) return;
    this.timer = setTimeout(() => this.flush(), this.flushMs);
    // A pending line must not keep the process alive: the exit writes it.
    this.timer.unref();
  }
}

let stdoutWriter: DroppingLineWriter | undefined;

/** The process's one writer of log lines to standard output (written at exit too). */
export function stdoutLogDestination(): DroppingLineWriter {
  if (stdoutWriter) return stdoutWriter;
  const writer = new DroppingLineWriter(nonBlockingStdout());
  process.once('exit', () => writer.flush());
  stdoutWriter = writer;
  return writer;
}

/** A descriptor of standard output that never blocks a write (see the module's header). */
function nonBlockingStdout(): number {
  try {
    if (fstatSync(1).isFIFO()) return openSync('/proc/self/fd/1', constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    // Not Linux, or the reader is already gone (ENXIO): standard output itself, as below.
  }
  // A file never makes a write wait. A socket (journald's) becomes non-blocking when Node first
  // opens process.stdout (a terminal stays blocking: only a paused one, Ctrl-S, waits); there the
  // flag is shared, so under --workers a full socket may still block (see the header).
  void process.stdout;
  return 1;
}

/**
 * Whether the primary of `--workers N` must relay its workers' lines: standard output is a socket
 * (a Node supervisor's 'pipe', systemd's journal), which cannot be opened anew for each process
 * as a pipe is. Shared, its O_NONBLOCK is cleared by libuv at every fork of a worker and by Node at
 * every exit, and a full socket then blocked the primary and the workers in write(2) for good.
 */
export function workersNeedLogRelay(): { stdout: boolean; stderr: boolean } {
  try {
    const out = fstatSync(1);
    if (!out.isSocket()) return { stdout: false, stderr: false };
    // `2>&1` (systemd's StandardError=inherit): standard error is the same socket, and a worker's
    // inherited standard error would clear the flag just the same.
    const err = fstatSync(2);
    return { stdout: true, stderr: err.dev === out.dev && err.ino === out.ino };
  } catch {
    return { stdout: false, stderr: false };
  }
}

/** Longest part of a line a relay keeps while waiting for its end: a longer line is dropped. */
const RELAY_MAX_LINE_BYTES = 1024 * 1024;

/**
 * Relays a worker's standard output (a socket pair of its own, which the primary reads at once and
 * never pauses) to this process's writer, line by line, so the worker never shares the primary's
 * standard output: a line the writer cannot take is dropped and counted here.
 */
export function relayLogLines(source: NodeJS.ReadableStream, writer: DroppingLineWriter = stdoutLogDestination()): void {
  let partial = '';
  source.setEncoding('utf8');
  source.on('data', (chunk: string) => {
    let text = partial + chunk;
    let end: number;
    while ((end = text.indexOf('\n')) >= 0) {
      writer.write(text.slice(0, end + 1));
      text = text.slice(end + 1);
    }
    partial = text.length > RELAY_MAX_LINE_BYTES ? '' : text;
  });
  // A worker that dies mid-line leaves no cut line behind.
  source.on('error', () => {});
}

/** Log lines this process could not write to standard output (for the metrics). */
export function droppedStdoutLogLines(): number {
  return stdoutWriter?.dropped ?? 0;
}

/** A reader that went away must neither crash the process nor block it: later output is dropped. */
export function dropOutputToClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
