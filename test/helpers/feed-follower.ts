/**
 * A client following the events feed of a running service over a real port, the way an
 * integration does: a long poll (`wait=N`, page after page through the `Link` header) or a live
 * stream (Server-Sent Events). Each batch of events is handed to `onEvents` as it arrives; the
 * follower runs until `stop()`, and `failed` tells a follower that went wrong (an answer other
 * than 200, a stream the service ended) so a test waiting on events fails with the reason rather
 * than at its deadline. The multi-process feed tests and the bench's feed measurements use it.
 */
import { nextLinkOf } from './pages.js';
import { openSse } from './sse-client.js';

export interface FeedEvent {
  id: number;
  type: string;
  data: { id: number; name?: string };
}

export type FeedReaderKind = 'long-poll' | 'stream';

export interface FollowFeedOptions {
  kind: FeedReaderKind;
  baseUrl: string;
  key: string;
  /** `latest`: only what comes after the follower started; `start`: the whole feed from its oldest event. */
  from: 'latest' | 'start';
  /** Events per page (the service's default when unset). */
  limit?: number;
  /** A long poll's `wait`, in seconds (10 by default). */
  waitSeconds?: number;
  onEvents(events: FeedEvent[]): void;
}

export interface FeedFollower {
  kind: FeedReaderKind;
  /** Rejects when the follower stops on its own (an answer other than 200, a stream ended by the service); never resolves otherwise. */
  failed: Promise<never>;
  stop(): void;
}

/** Starts following; resolves once the follower stands at its start (a long poll has its first link, a stream its 200). */
export async function followFeed(options: FollowFeedOptions): Promise<FeedFollower> {
  const headers = { authorization: `Bearer ${options.key}` };
  const query = [options.from === 'latest' ? 'start=latest' : '', options.limit === undefined ? '' : `limit=${options.limit}`].filter(Boolean).join('&');
  const first = `/v1/events${query ? `?${query}` : ''}`;
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // Whoever awaits it reports the failure; a follower nobody waits on must not crash the process.
  failed.catch(() => {});
  const stopping = new AbortController();

  if (options.kind === 'stream') {
    const stream = await openSse(options.baseUrl, first, headers);
    if (stream.status !== 200) throw new Error(`GET ${first} as a stream answered ${stream.status}: ${await stream.text()}`);
    void (async () => {
      for (;;) {
        // The deadline only bounds one wait: keep-alive comments arrive every 15 s on an idle stream.
        const frame = await stream.next(3_600_000);
        if (!frame) break;
        if (frame.data !== undefined && frame.event !== undefined) options.onEvents([JSON.parse(frame.data) as FeedEvent]);
      }
      if (!stopping.signal.aborted) fail(new Error(`the stream from ${options.baseUrl} ended while it was followed`));
    })().catch((error: unknown) => fail(error as Error));
    return { kind: 'stream', failed, stop: () => (stopping.abort(), stream.close()) };
  }

  const get = async (path: string) => {
    const response = await fetch(`${options.baseUrl}${path}`, { headers, signal: stopping.signal });
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    const next = nextLinkOf(response.headers.get('link'));
    if (!next) throw new Error(`GET ${path} answered no next link`);
    return { events: (await response.json()) as FeedEvent[], next };
  };
  // The first answer at once (start=latest answers empty), so the follower stands before anything written after this call.
  const opening = await get(first);
  if (opening.events.length > 0) options.onEvents(opening.events);
  void (async () => {
    let { next } = opening;
    for (;;) {
      const page = await get(`${next}&wait=${options.waitSeconds ?? 10}`);
      if (page.events.length > 0) options.onEvents(page.events);
      next = page.next;
    }
  })().catch((error: unknown) => {
    if (!stopping.signal.aborted) fail(error as Error);
  });
  return { kind: 'long-poll', failed, stop: () => stopping.abort() };
}
