/** Reading pages of a listing the way a client does: follow `Link: <…>; rel="next"` until none comes. */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

/** The target of a `rel="next"` Link header, or undefined when there is none. */
export function nextLinkOf(link: unknown): string | undefined {
  return /^<([^>]+)>; rel="next"$/.exec(String(link ?? ''))?.[1];
}

/** The cursor parameter of a next link. */
export function cursorOf(link: string): string {
  const cursor = new URL(link, 'http://x').searchParams.get('cursor');
  assert.ok(cursor, `no cursor in ${link}`);
  return cursor;
}

/** Every item of a walk from `url`, page after page, asserting each page answers 200. */
export async function walkPages<T>(app: FastifyInstance, headers: Record<string, string>, url: string, maxPages = 100): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let next: string | undefined = url;
  let pages = 0;
  while (next) {
    assert.ok(pages++ < maxPages, `more than ${maxPages} pages from ${url}`);
    const response: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown } = await app.inject({
      method: 'GET',
      url: next,
      headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    items.push(...(response.json() as T[]));
    next = nextLinkOf(response.headers.link);
  }
  return { items, pages };
}
