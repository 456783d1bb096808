import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DROPPED_LINES_MESSAGE, DroppingLineWriter, LOG_BUFFER_BYTES, LOG_FLUSH_MS } from '../src/log-destination.js';
import { createMetrics } from '../src/metrics/metrics.js';
import { TMPFS_SKIP_REASON } from './helpers/machine-tools.js';
import { sampleValue } from './helpers/metrics.js';
import { publishedSection } from './helpers/published-docs.js';

/** A real pipe (a FIFO): both ends non-blocking, as the service's standard output is. */
function openPipe(): { readFd: number; writeFd: number; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'animal-store-pipe-'));
  const path = join(folder, 'pipe');
  assert.equal(spawnSync('mkfifo', [path]).status, 0);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { readFd, writeFd, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Everything in the pipe now, as the reader that comes back reads it. */
function drain(readFd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65536);
  for (;;) {
    let read: number;
    try {
      read = readSync(readFd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  return Buffer.concat(chunks).toString();
}

const line = (n: number) => `${JSON.stringify({ level: 30, n, msg: 'request', pad: 'x'.repeat(80) })}\n`;

describe('DroppingLineWriter', () => {
  const cleanups: (() => void)[] = [];
  after(() => cleanups.forEach((cleanup) => cleanup()));

  it('on a pipe nobody reads > drops lines at once (EAGAIN) and counts them, and once the pipe drains writes one line saying how many, before the next lines', () => {
    const pipe = openPipe();
    cleanups.push(() => {
      closeSync(pipe.readFd);
      closeSync(pipe.writeFd);
      pipe.remove();
    });
    // No timer: every write here is one the test asks for.
    const writer = new DroppingLineWriter(pipe.writeFd, { batchBytes: 4096, flushMs: 3_600_000, now: () => 1_800_000_000_000 });
    let sent = 0;
    while (writer.dropped === 0) {
      assert.ok(sent < 100_000, 'the pipe never filled');
      writer.write(line(sent++));
    }
    // Full now, and nobody reads: ten more lines are dropped, whole, without a wait.
    writer.flush();
    const droppedBefore = writer.dropped;
    for (let i = 0; i < 10; i++) writer.write(line(sent++));
    writer.flush();
    assert.equal(writer.dropped, droppedBefore + 10);

    // The reader comes back; the next write begins with the summary.
    let text = drain(pipe.readFd);
    writer.write(`${JSON.stringify({ level: 30, msg: 'after the drain' })}\n`);
    writer.flush();
    text += drain(pipe.readFd);

    assert.ok(text.endsWith('\n'));
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((raw) => JSON.parse(raw) as Record<string, unknown>);
    const summaries = lines.filter((parsed) => parsed.msg === DROPPED_LINES_MESSAGE);
    assert.equal(summaries.length, 1);
    assert.deepEqual(
      { ...summaries[0], pid: undefined, hostname: undefined },
      { level: 40, time: 1_800_000_000_000, pid: undefined, hostname: undefined, droppedLines: writer.dropped, msg: DROPPED_LINES_MESSAGE },
    );
    assert.equal(summaries[0]!.pid, process.pid);
    assert.deepEqual(
      lines.slice(-2).map((parsed) => parsed.msg),
      [DROPPED_LINES_MESSAGE, 'after the drain'],
    );
    // Every line is whole (each parsed above), in order, and each was written or counted, never both.
    const written = lines.filter((parsed) => typeof parsed.n === 'number').map((parsed) => parsed.n as number);
    assert.deepEqual(
      written,
      [...written].sort((a, b) => a - b),
    );
    assert.equal(written.length + writer.dropped, sent);

    // Said once: the next lines come without another summary.
    writer.write(line(sent++));
    writer.flush();
    assert.deepEqual(drain(pipe.readFd), line(sent - 1));
  });

  it('on a pipe whose reader went away (EPIPE) > drops and counts every line, and never throws', () => {
    const pipe = openPipe();
    cleanups.push(() => {
      closeSync(pipe.writeFd);
      pipe.remove();
    });
    closeSync(pipe.readFd);
    const writer = new DroppingLineWriter(pipe.writeFd, { batchBytes: 4096, flushMs: 3_600_000 });
    for (let i = 0; i < 100; i++) writer.write(line(i));
    writer.flush();
    writer.flush();
    assert.equal(writer.dropped, 100);
  });

  it('on a pipe two processes write to > never cuts a line of one with a line of the other (each write fits PIPE_BUF, which a pipe takes whole or not at all)', () => {
    const pipe = openPipe();
    cleanups.push(() => {
      closeSync(pipe.readFd);
      closeSync(pipe.writeFd);
      pipe.remove();
    });
    // Two writers on one pipe, as a primary and its workers are (each its own description of it).
    const other = openSync(`/proc/self/fd/${pipe.writeFd}`, constants.O_WRONLY | constants.O_NONBLOCK);
    cleanups.push(() => closeSync(other));
    const first = new DroppingLineWriter(pipe.writeFd, { batchBytes: 4096, flushMs: 3_600_000 });
    const second = new DroppingLineWriter(other, { batchBytes: 4096, flushMs: 3_600_000 });
    // The pipe full, each of its pages with a little room left (4000 of 4096 bytes used).
    const filler = `${JSON.stringify({ level: 30, msg: 'filler', pad: 'f'.repeat(3963) })}\n`;
    assert.equal(filler.length, 4000);
    for (;;) {
      try {
        writeSync(pipe.writeFd, filler);
      } catch (error) {
        assert.equal((error as NodeJS.ErrnoException).code, 'EAGAIN');
        break;
      }
    }
    // The first writer's batch reaches the batch size: its write finds the pipe full.
    let sent = 0;
    while (first.dropped === 0 && sent < 100) first.write(line(sent++));
    let text = drain(pipe.readFd);
    // The second writer writes, then the first.
    second.write(`${JSON.stringify({ level: 30, msg: 'second' })}\n`);
    second.flush();
    first.write(line(sent++));
    first.flush();
    text += drain(pipe.readFd);
    for (const raw of text.slice(0, -1).split('\n')) assert.doesNotThrow(() => JSON.parse(raw), `a cut line: ${raw.slice(0, 120)}…`);
  });

  it('on a file whose disk filled up (ENOSPC) > drops and counts lines while it is full, and writes again (the summary first) once space is freed', (t) => {
    // A real full disk: a 64 KiB tmpfs (mounting needs root, as CI's container has).
    const folder = mkdtempSync(join(tmpdir(), 'animal-store-disk-'));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', folder]).status !== 0) {
      t.skip(TMPFS_SKIP_REASON);
      return;
    }
    cleanups.unshift(() => spawnSync('umount', [folder]));
    const ballast = join(folder, 'ballast');
    const logFd = openSync(join(folder, 'log'), constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND);
    cleanups.unshift(() => closeSync(logFd));
    // The disk full but for a few blocks, then full: the writer's next batches find ENOSPC.
    writeFileSync(ballast, Buffer.alloc(64 * 1024 - 8192));
    const writer = new DroppingLineWriter(logFd, { batchBytes: 4096, flushMs: 3_600_000 });
    let sent = 0;
    while (writer.dropped === 0) {
      assert.ok(sent < 10_000, 'the disk never filled');
      writer.write(line(sent++));
    }
    // Space again (a log rotation, a cleanup): logging resumes, and says what it dropped.
    rmSync(ballast);
    writer.write(`${JSON.stringify({ level: 30, msg: 'after the cleanup' })}\n`);
    writer.flush();
    const text = readFileSync(join(folder, 'log'), 'utf8');
    // Every line whole (the one the full disk cut was finished first), the summary once, the last line there.
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((raw) => JSON.parse(raw) as Record<string, unknown>);
    const summaries = lines.filter((parsed) => parsed.msg === DROPPED_LINES_MESSAGE);
    assert.deepEqual(
      summaries.map((parsed) => parsed.droppedLines),
      [writer.dropped],
    );
    assert.equal(lines.at(-1)!.msg, 'after the cleanup');
    assert.equal(lines.filter((parsed) => typeof parsed.n === 'number').length + writer.dropped, sent);
  });

  it('on a pipe that keeps up > gathers lines up to the batch size and writes them whole, in order', () => {
    const pipe = openPipe();
    cleanups.push(() => {
      closeSync(pipe.readFd);
      closeSync(pipe.writeFd);
      pipe.remove();
    });
    const writer = new DroppingLineWriter(pipe.writeFd, { batchBytes: 4096, flushMs: 3_600_000 });
    let sent = 0;
    let text = '';
    while (text === '') {
      writer.write(line(sent++));
      text = drain(pipe.readFd);
    }
    // One write, once the next line would have passed the batch size (and PIPE_BUF), of the lines before it.
    assert.equal(text, Array.from({ length: sent - 1 }, (_, n) => line(n)).join(''));
    assert.ok(text.length <= 4096 && text.length + line(sent - 1).length > 4096, `${text.length} bytes`);
    assert.equal(writer.dropped, 0);
  });
});

describe('docs > Health, logs and shutdown', () => {
  it('the batch size, the flush interval, the summary line and the metric it quotes > are the ones the code uses', async () => {
    const text = publishedSection('Health, logs and shutdown').text.replace(/\s+/g, ' ');
    assert.ok(text.includes(`Lines are gathered up to ${LOG_BUFFER_BYTES / 1024} KiB and written at least every ${LOG_FLUSH_MS} ms and at exit`), text);
    assert.ok(text.includes(`"msg":"${DROPPED_LINES_MESSAGE}"`));
    assert.ok(text.includes('`animal_store_log_lines_dropped_total`'));
    assert.equal(sampleValue(await createMetrics({}).render(), 'animal_store_log_lines_dropped_total'), 0);
  });
});
