/**
 * Walking a listing page after page, the way the service tells: follow `Link: <…>; rel="next"`
 * until none comes. Generic over the listing, so any ascending-id listing is one line.
 */

/** The target of a `rel="next"` link in a Link header, or undefined when there is none. */
export function nextLinkOf(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/**
 * The query of a next link as parameters for the next call. The link must name the same path
 * as the listing (a hostile or broken server must not send the key elsewhere); a repeated
 * parameter becomes an array.
 */
export function queryOfNextLink(link: string, expectedPath: string): Record<string, string | string[]> {
  const url = new URL(link, 'http://animal-store.invalid');
  if (url.origin !== 'http://animal-store.invalid' || !url.pathname.endsWith(expectedPath)) {
    throw new Error(`the next link ${link} does not point at ${expectedPath}`);
  }
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** Every item of every page: `fetchPage(query)` answers one page and its Link header. */
export async function* allPages<T, Q>(
  path: string,
  query: Q,
  fetchPage: (query: Q) => Promise<{ items: T[]; link: string | null }>,
): AsyncGenerator<T, void, undefined> {
  let next: Q | undefined = query;
  while (next !== undefined) {
    const page: { items: T[]; link: string | null } = await fetchPage(next);
    yield* page.items;
    const link = nextLinkOf(page.link);
    // The link's values are text; the service reads them back exactly as it wrote them.
    next = link === undefined ? undefined : (queryOfNextLink(link, path) as Q);
  }
}
