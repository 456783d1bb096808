/**
 * Counts the Server-Sent Events frames that hold an event (their `data:` line) in a stream's bytes
 * as they arrive, without parsing them: the catch-up measurement's 200 readers share the process
 * that sends and times the creates, and parsing every frame and its JSON there delayed the creates
 * (feed.ts). A line cut between two chunks is counted once, in the chunk that completes it.
 */
const DATA_LINE = Buffer.from('\ndata: ');

export function eventFrameCounter(): (chunk: Buffer) => number {
  // The end of the bytes before, too short to hold a whole `data:` line on its own.
  let carry: Buffer = Buffer.alloc(0);
  return (chunk) => {
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let count = 0;
    for (let at = bytes.indexOf(DATA_LINE); at >= 0; at = bytes.indexOf(DATA_LINE, at + DATA_LINE.length)) count += 1;
    carry = bytes.subarray(Math.max(0, bytes.length - (DATA_LINE.length - 1)));
    return count;
  };
}
