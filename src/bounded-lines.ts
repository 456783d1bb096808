/**
 * Reading a file line by line with a bound on each line, for the commands that load files an
 * operator hands them (`import`, `pets import`). Node's readline keeps a line in memory until its
 * line break arrives, however long: one line of a gigabyte, or a file of binary garbage without a
 * line break, would take the process's memory. Here a line longer than `maxBytes` is refused as
 * soon as that many bytes are read, and a line that is not UTF-8 is refused rather than read with
 * replacement characters.
 */
import type { Readable } from 'node:stream';

/** A line too long, or not UTF-8: `line` counts from 1. */
export class LineRefused extends Error {
  constructor(
    readonly line: number,
    readonly reason: 'too long' | 'not UTF-8',
    readonly maxBytes: number,
  ) {
    super(
      reason === 'too long'
        ? `line ${line} is longer than ${maxBytes.toLocaleString('en-US')} bytes`
        : `line ${line} is not UTF-8 text (binary data, or another encoding)`,
    );
  }
}

export interface Line {
  /** Counts from 1. */
  number: number;
  text: string;
  /** Its bytes in the file, line break included. */
  bytes: number;
}

/** The lines of `input` (LF or CRLF line ends; a last line without a line break counts). */
export async function* boundedLines(input: Readable, maxBytes: number): AsyncGenerator<Line, void, undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  const take = (last: Buffer, breakBytes: number): Line => {
    const whole = pending.length === 0 ? last : Buffer.concat([...pending, last]);
    pending = [];
    pendingBytes = 0;
    number += 1;
    const content = whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.subarray(0, whole.length - 1) : whole;
    let text: string;
    try {
      text = decoder.decode(content);
    } catch {
      throw new LineRefused(number, 'not UTF-8', maxBytes);
    }
    return { number, text, bytes: whole.length + breakBytes };
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(0x0a, start);
      if (end === -1) break;
      if (pendingBytes + end - start > maxBytes) throw new LineRefused(number + 1, 'too long', maxBytes);
      yield take(buffer.subarray(start, end), 1);
      start = end + 1;
    }
    if (start < buffer.length) {
      pendingBytes += buffer.length - start;
      if (pendingBytes > maxBytes) throw new LineRefused(number + 1, 'too long', maxBytes);
      // A copy: the stream may reuse its chunk's memory.
      pending.push(Buffer.from(buffer.subarray(start)));
    }
  }
  if (pendingBytes > 0) yield take(Buffer.alloc(0), 0);
}
