/**
 * A Server-Sent Events reader for the stream tests: one real HTTP connection, frames parsed as
 * the HTML standard says (`id:`, `event:`, `data:`, comments), awaited one by one with deadlines.
 */
import { type IncomingMessage, request } from 'node:http';
import { withDeadline } from './wait-for.js';

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  /** A comment line's text (after the colon), for `: keep-alive`. */
  comment?: string;
}

export interface SseConnection {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body when the answer was not a stream (an Error). */
  text(): Promise<string>;
  /** The next frame, or undefined once the stream has ended. */
  next(deadlineMs?: number): Promise<SseFrame | undefined>;
  /** Frames until one passes `until` (included); fails when the stream ends first. */
  framesUntil(until: (frame: SseFrame) => boolean, deadlineMs?: number): Promise<SseFrame[]>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(baseUrl: string, path: string, headers: Record<string, string>): Promise<SseConnection> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
  response.setEncoding('utf8');
  const frames: (SseFrame | undefined)[] = [];
  const waiting: ((frame: SseFrame | undefined) => void)[] = [];
  const push = (frame: SseFrame | undefined) => {
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  };
  let buffer = '';
  let body = '';
  const ended = new Promise<void>((resolve) => {
    response.on('close', () => {
      push(undefined);
      resolve();
    });
  });
  response.on('error', () => {});
  // Only an answer that is not a stream is kept whole (an Error to read): a long stream is not held in memory.
  const keepBody = response.statusCode !== 200;
  response.on('data', (chunk: string) => {
    if (keepBody) body += chunk;
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: SseFrame = {};
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === '') frame.comment = value;
        else (frame as Record<string, string>)[field] = value;
      }
      push(frame);
    }
  });
  const next = (deadlineMs = 10_000) =>
    withDeadline(
      new Promise<SseFrame | undefined>((resolve) => {
        if (frames.length > 0) resolve(frames.shift());
        else waiting.push(resolve);
      }),
      deadlineMs,
      'waiting for the next frame of the stream',
    );
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    text: async () => (await ended, body),
    next,
    async framesUntil(until, deadlineMs = 10_000) {
      const seen: SseFrame[] = [];
      for (;;) {
        const frame = await next(deadlineMs);
        if (!frame) throw new Error(`the stream ended after ${seen.length} frames`);
        seen.push(frame);
        if (until(frame)) return seen;
      }
    },
    ended,
    close: () => response.destroy(),
  };
}
