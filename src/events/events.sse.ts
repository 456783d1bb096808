/**
 * The HTTP side of the feed's live stream (Server-Sent Events): which requests ask for it, and the
 * body it is written to. The body is a stream handed to `reply.send`, not a hijacked socket, so the
 * answer goes through the request pipeline as any other: its headers, and its log line once it
 * ends. Its metrics count it only when its body ends and is all sent (a stop, a revoked key, a
 * failed read): a stream its client leaves, or one the service cuts (a stalled reader, a stop that
 * finds frames not taken), never finishes its answer, as any request whose client hangs up.
 *
 * A reader slower than the feed is never buffered for without bound: frames are written in pieces
 * of about 64 K characters, each once the body has taken the one before (`write` waits for
 * `drain`), so what a reader that does not read keeps in memory per stream is the body's and
 * the socket's buffers (about 64 KiB each, a piece more while one waits to go in) and what is left
 * of its page as text (a page is 100 events at most). A connection that takes nothing for
 * STALLED_READER_MS while frames wait (a client that stopped reading, a peer gone without a word)
 * is cut off, so it does not hold its key's stream and that memory for as long as it stays connected.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FrameSink } from './events.live.js';

export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';
/** How often an idle stream writes a comment line, so proxies do not close it as idle. */
export const KEEP_ALIVE_MS = 15_000;
/**
 * How long a refused write may wait for the connection to take more before the stream is cut; its
 * client resumes from the last id it got. The kernel takes more only once a good part of its send
 * buffer (up to megabytes) has been read, so a reader slower than a few tens of KB/s may be cut too.
 */
export const STALLED_READER_MS = 60_000;
/** The reconnection delay a stream suggests to EventSource clients (`retry:`), in ms. */
export const RECONNECT_MS = 1000;
const KEEP_ALIVE = ': keep-alive\n\n';
/** Buffered in the body before `write` waits for the socket. */
const HIGH_WATER_BYTES = 64 * 1024;

/** The headers of a stream: no caching, and no buffering by proxies that honour `X-Accel-Buffering` (nginx). */
export const EVENT_STREAM_HEADERS = {
  'content-type': `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`,
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/** Whether `Accept` asks for the stream: `text/event-stream` with a weight above 0, not below `application/json`'s. */
export function wantsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const weights = new Map<string, number>();
  for (const range of accept.toLowerCase().split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim());
    const q = parameters.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (type) weights.set(type, Number.isFinite(weight) ? weight : 0);
  }
  const stream = weights.get(EVENT_STREAM_MEDIA_TYPE) ?? 0;
  return stream > 0 && stream >= (weights.get('application/json') ?? 0);
}

/** A write waited `stallMs` for a reader that took nothing. */
export class StalledReader extends Error {
  constructor(stallMs: number) {
    super(`the connection took nothing for ${stallMs / 1000} s while frames waited`);
  }
}

export interface EventStreamBody {
  /** What `reply.send` sends. */
  body: PassThrough;
  sink: FrameSink;
  /** Ends the body (the answer ends once what is buffered has gone) and stops the keep-alive. */
  end(): void;
}

/** A stream's body: the reconnection hint first, a comment every `keepAliveMs` while nothing else waits to go. */
export function eventStreamBody(options: { keepAliveMs: number; stallMs: number; until: AbortSignal }): EventStreamBody {
  const body = new PassThrough({ highWaterMark: HIGH_WATER_BYTES });
  body.write(`retry: ${RECONNECT_MS}\n\n`);
  const keepAlive = setInterval(() => {
    // A reader that has not taken the last frames yet needs no comment to keep the line busy.
    if (body.writableLength === 0 && body.writable) body.write(KEEP_ALIVE);
  }, options.keepAliveMs);
  return {
    body,
    sink: {
      async write(text) {
        if (!body.writable) throw new Error('the stream has ended');
        if (body.write(text)) return;
        const stalled = new AbortController();
        const timer = setTimeout(() => stalled.abort(), options.stallMs);
        try {
          await once(body, 'drain', { signal: AbortSignal.any([options.until, stalled.signal]) });
        } catch (error) {
          throw stalled.signal.aborted && !options.until.aborted ? new StalledReader(options.stallMs) : error;
        } finally {
          clearTimeout(timer);
        }
      },
    },
    end() {
      clearInterval(keepAlive);
      if (body.writable) body.end();
    },
  };
}
