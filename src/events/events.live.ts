/**
 * The feed read as it grows: a long poll (`wait=N`) and a live stream (Server-Sent Events). No
 * HTTP here: both read the pages of one walk (events.service.ts) and sleep on the process's one
 * wake-up signal (events.wakeup.ts) between pages, never polling the database on their own.
 */
import type { Event } from './events.schemas.js';
import type { EventWalk, WalkPage } from './events.service.js';
import type { FeedWakeup, FeedWatch } from './events.wakeup.js';

/** How the live readers of one process read their pages. */
export interface PageReads {
  /** The page of `walk`, for a reader whose ticket (taken just before) is `ticket`. */
  read(walk: EventWalk, ticket: number): Promise<WalkPage>;
}

/**
 * One read for every live reader that asks for the same page after the same move of the feed. A
 * commit wakes every waiting reader at once, and the streams at the feed's end all read the same
 * next page: 200 of them made each commit 200 reads of the database, queued on the pool. A reader
 * joins only a read begun at its own ticket: a move after that read began wakes the reader again,
 * so what the read could not see is read then. Only reads in flight are kept, at most one per reader.
 * Readers share the page's objects and never change them, and a read's failure: each stream it ends
 * is resumed by its client from the last id it got, its first page paced like any other's.
 */
export function sharedPageReads(readPage: (walk: EventWalk) => Promise<WalkPage>): PageReads {
  const inFlight = new Map<string, Promise<WalkPage>>();
  return {
    read(walk, ticket) {
      const key = `${ticket} ${walk.after} ${walk.limit} ${walk.resumed} ${walk.types?.join(',') ?? '*'}`;
      const shared = inFlight.get(key);
      if (shared !== undefined) return shared;
      const reading = readPage(walk);
      const forget = () => void inFlight.delete(key);
      reading.then(forget, forget);
      inFlight.set(key, reading);
      return reading;
    },
  };
}

/**
 * The page a long poll answers: the first page of the walk that holds an event, or, once `until`
 * aborts (the wait's end, the client gone, a stop), an empty one at the position reached (a
 * filtered walk moves past the other types it read meanwhile).
 */
export async function waitForPage(pages: PageReads, walk: EventWalk, wakeup: FeedWakeup, until: AbortSignal): Promise<Pick<WalkPage, 'events' | 'next'>> {
  let position = walk.after;
  let resumed = walk.resumed;
  let skipFirst = walk.startsLatest;
  const watch = wakeup.watch(until);
  try {
    for (;;) {
      const ticket = watch.ticket();
      if (!skipFirst) {
        const page = await pages.read({ ...walk, after: position, resumed }, ticket);
        if (page.events.length > 0) return page;
        position = page.next;
        resumed = true;
        // A filtered read that moved past its fill of other types reads on at once.
        if (page.more && !until.aborted) continue;
      }
      skipFirst = false;
      if (!(await watch.changedSince(ticket))) return { events: [], next: position };
    }
  } finally {
    watch.stop();
  }
}

/** Where a stream's frames go, several at a time: `write` settles once the text may be followed by more (backpressure). */
export interface FrameSink {
  write(text: string): Promise<void>;
}

/** A stream's first page, read before the stream is answered, so a 410 is still an ordinary error. */
export interface StreamOpening {
  watch: FeedWatch;
  ticket: number;
  page: WalkPage | undefined;
}

export async function openStream(pages: PageReads, walk: EventWalk, wakeup: FeedWakeup, until: AbortSignal): Promise<StreamOpening> {
  const watch = wakeup.watch(until);
  const ticket = watch.ticket();
  try {
    return { watch, ticket, page: walk.startsLatest ? undefined : await pages.read(walk, ticket) };
  } catch (error) {
    watch.stop();
    throw error;
  }
}

/**
 * Writes every event of the walk as a frame, page after page, as they come, until `until`
 * aborts; the frame's id is the cursor after its event. `stillAllowed` is asked before each page
 * that holds events: a key revoked meanwhile ends the stream there ('refused'). While it catches up
 * (a full page, more at once), each next page waits for its turn (`catchUp`, events.catch-up.ts).
 */
export async function streamWalk(
  pages: PageReads,
  walk: EventWalk,
  sink: FrameSink,
  options: { opening: StreamOpening; until: AbortSignal; stillAllowed: () => Promise<boolean>; catchUp: () => Promise<boolean> },
): Promise<'ended' | 'refused'> {
  const { watch } = options.opening;
  let { ticket, page } = options.opening;
  // A page's objects are let go once its frames are made (the opening's too), before any wait: for
  // its turn (about two seconds each when 200 streams catch up, which promoted 200 streams' pages
  // to the old generation: 100 MB of RSS and a 100-ms collection) or for a slow reader to drain.
  options.opening.page = undefined;
  let position = walk.after;
  try {
    for (;;) {
      let more = false;
      if (page) {
        const { positions, next } = page;
        const pieces = piecesOf(page.events.map((event, i) => eventFrame(event, walk.cursorOf(positions[i]!))));
        more = page.more;
        page = undefined;
        if (pieces.length > 0) {
          // Asked once the page is let go: the check may wait for the database, and a page's objects
          // held through that wait by 200 streams are what the collector must not promote.
          if (!(await options.stillAllowed())) return 'refused';
          // Each piece let go as it is handed over: a reader that does not read holds only what is still to send.
          while (pieces.length > 0) await sink.write(pieces.shift()!);
        }
        position = next;
      }
      if (more ? !(await options.catchUp()) : !(await watch.changedSince(ticket))) return 'ended';
      if (options.until.aborted) return 'ended';
      ticket = watch.ticket();
      page = await pages.read({ ...walk, after: position, resumed: true }, ticket);
    }
  } finally {
    watch.stop();
  }
}

/** A write of a stream's frames: the size of its body's buffer (events.sse.ts), so a page waits for its reader a piece at a time. */
const WRITE_CHARS = 64 * 1024;

/**
 * A page's frames joined into pieces of about WRITE_CHARS characters, each written once the one
 * before may be followed: 200 streams opening together wrote 100 frames each, one socket write apiece.
 */
function piecesOf(frames: string[]): string[] {
  const pieces: string[] = [];
  let text = '';
  for (const frame of frames) {
    text += frame;
    if (text.length >= WRITE_CHARS) {
      pieces.push(text);
      text = '';
    }
  }
  if (text !== '') pieces.push(text);
  return pieces;
}

/** One Server-Sent Events frame: `id` (the cursor after the event), `event` (its type), `data` (the Event as JSON, one line). */
function eventFrame(event: Event, cursor: string): string {
  return `id: ${cursor}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
