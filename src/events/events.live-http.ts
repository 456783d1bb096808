/**
 * The feed's long polls and live streams on the HTTP side: the process's one wake-up signal and
 * its readers' caps, made once per app; when a request waits, and for how long; how a stream
 * starts (every error, a 400, 410 or 429, before its first byte, as an ordinary Error answer) and
 * ends (the client leaves, the key is revoked, the app stops: a client resumes from the last `id:`
 * it got). The walks themselves are events.live.ts's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { logRequest } from '../http/request-context.js';
import type { RedisLink } from '../redis/redis-link.js';
import { feedChangeChannel } from './events.fleet-channel.js';
import { openStream, sharedPageReads, streamWalk, waitForPage } from './events.live.js';
import { registerEventsMetrics } from './events.metrics.js';
import { createCatchUpPace } from './events.catch-up.js';
import { createLiveReaders } from './events.readers.js';
import type { ListEventsQuery } from './events.schemas.js';
import { type EventWalk, readFirstPage, readWalkPage, startWalk, type WalkPage } from './events.service.js';
import { EVENT_STREAM_HEADERS, eventStreamBody, KEEP_ALIVE_MS, STALLED_READER_MS, StalledReader } from './events.sse.js';
import { createFeedWakeup } from './events.wakeup.js';

/** What a client refused a stream is told to wait, in seconds. */
const STREAM_RETRY_AFTER_SECONDS = 5;

export interface EventsLiveOptions {
  /** When set, commits are told to the fleet through it (events.fleet-channel.ts). */
  redis?: RedisLink | undefined;
  /** EVENT_STREAMS_PER_KEY. */
  streamsPerKey: number;
  /** Tests only: how often an idle stream writes its comment line (15 s by default). */
  keepAliveMs?: number | undefined;
  /** Tests only: how long a refused write waits for the connection to take more before the stream is cut (STALLED_READER_MS by default). */
  stallMs?: number | undefined;
  /** Tests only: how often the process looks at the feed for its waiters (events.wakeup.ts). */
  recheckMs?: number | undefined;
  /** Whether the key of a request streaming is still usable (not revoked, not expired). */
  keyStillUsable: (request: FastifyRequest) => Promise<boolean>;
}

export interface EventsLive {
  /** The page a (long) poll answers: at once with wait=0, else when an event comes or `wait` s have passed. */
  poll(request: FastifyRequest, reply: FastifyReply, walk: EventWalk, waitSeconds: number): Promise<Pick<WalkPage, 'events' | 'next'>>;
  /** Answers the live stream of the walk (an Error answer if it cannot start). */
  stream(request: FastifyRequest, reply: FastifyReply, walk: EventWalk): Promise<FastifyReply>;
}

export function createEventsLive(app: FastifyInstance, db: Kysely<Database>, options: EventsLiveOptions): EventsLive {
  const channel = feedChangeChannel(options.redis, (error) =>
    app.log.warn({ err: error }, "could not subscribe to the events feed's changes; waiting readers look every second"),
  );
  const wakeup = createFeedWakeup({ db, log: app.log, channel, recheckMs: options.recheckMs });
  const readers = createLiveReaders(options.streamsPerKey);
  const catchUp = createCatchUpPace();
  const pages = sharedPageReads((walk) => readWalkPage(db, walk));
  registerEventsMetrics(app.metrics.registry, db, readers);
  // First thing in a stop: waiting long polls answer, streams end, before the server waits for them.
  app.addHook('preClose', async () => wakeup.close());
  // The client hung up (or the answer went out): whatever still waits for it stops. It may have hung
  // up already, while the request was read or authenticated: its 'close' has gone then, and a stream
  // would hold its key's place until the next event tried to reach it.
  const goneSignal = (reply: FastifyReply) => {
    const gone = new AbortController();
    if (reply.raw.destroyed) gone.abort();
    else reply.raw.once('close', () => gone.abort());
    return AbortSignal.any([gone.signal, wakeup.stopping]);
  };

  return {
    async poll(request, reply, walk, waitSeconds) {
      const release = waitSeconds > 0 ? readers.startWaiting(request.apiKey!.id) : undefined;
      if (!release) return readFirstPage(db, walk);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), waitSeconds * 1000);
      try {
        return await waitForPage(pages, walk, wakeup, AbortSignal.any([deadline.signal, goneSignal(reply)]));
      } finally {
        clearTimeout(timer);
        release();
      }
    },

    async stream(request, reply, walk) {
      const release = readers.openStream(request.apiKey!.id);
      if (!release) {
        reply.header('retry-after', String(STREAM_RETRY_AFTER_SECONDS));
        throw new AppError(
          'too_many_streams',
          `this key already holds ${options.streamsPerKey} streams of the events feed on this instance (EVENT_STREAMS_PER_KEY); close one or retry after ${STREAM_RETRY_AFTER_SECONDS} s`,
        );
      }
      const until = goneSignal(reply);
      let opening;
      try {
        // The first page is read in turn too: streams opened together (a fleet of readers restarted) would read theirs in one burst.
        if (!(await catchUp.turn(request.apiKey!.id, until))) throw new AppError('service_unavailable', 'the stream was not opened: the service is stopping');
        opening = await openStream(pages, walk, wakeup, until);
      } catch (error) {
        release();
        throw error;
      }
      // The service ends the stream, its client did not hang up: its access line, written first, says it was answered.
      const cut = (reset: boolean) => {
        logRequest(request, reply, false);
        if (reset && reply.raw.socket) reply.raw.socket.resetAndDestroy();
        else reply.raw.destroy();
      };
      const out = eventStreamBody({ keepAliveMs: options.keepAliveMs ?? KEEP_ALIVE_MS, stallMs: options.stallMs ?? STALLED_READER_MS, until });
      streamWalk(pages, walk, out.sink, {
        opening,
        until,
        stillAllowed: () => options.keyStillUsable(request),
        catchUp: () => catchUp.turn(request.apiKey!.id, until),
      })
        .catch((error: unknown) => {
          // The client resumes from the last id it got; a failure that is not its leaving is told.
          if (error instanceof StalledReader) {
            request.log.info({ keyId: request.apiKey!.id }, `the events stream was cut: ${error.message}`);
            // Reset, so the kernel drops the megabytes queued for it at once, instead of holding them
            // (the stream's place given back) until the client reads them or TCP gives up. Node 22
            // closes a socket whose write is pending instead of resetting it; Node 24 resets it.
            cut(true);
          } else if (!until.aborted) request.log.warn({ err: error }, 'the events stream ended on an error');
        })
        .finally(() => {
          release();
          out.end();
          // A stop does not wait for a reader that does not read: what it has not taken yet is cut off
          // (a frame cut in two is never dispatched by a client) and it resumes from the last id it got.
          if (wakeup.stopping.aborted && out.body.readableLength + out.body.writableLength + reply.raw.writableLength > 0) cut(false);
        });
      return reply.headers(EVENT_STREAM_HEADERS).send(out.body);
    },
  };
}

/** The walk a request asks for; a stream's `Last-Event-ID` (the `id:` of the last frame it got) wins over `cursor` and `start`. */
export function walkOfRequest(
  db: Kysely<Database>,
  request: FastifyRequest,
  query: ListEventsQuery & { limit: number },
  cursorSecret: string,
  lastEventId: string | undefined,
): Promise<EventWalk> {
  const asked = lastEventId === undefined || lastEventId === '' ? query : { ...query, start: undefined, cursor: lastEventId };
  return startWalk(db, asked, request.apiKey!.scopes, cursorSecret);
}
