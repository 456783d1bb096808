import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allPages, nextLinkOf, queryOfNextLink } from '../../client/src/pages.js';

describe('client pages', () => {
  it('nextLinkOf > Link headers with and without rel=next > the next target or undefined', () => {
    assert.equal(nextLinkOf('</v1/pets?limit=2&cursor=abc>; rel="next"'), '/v1/pets?limit=2&cursor=abc');
    assert.equal(nextLinkOf('</a>; rel="prev", </b>; rel="next"'), '/b');
    assert.equal(nextLinkOf('</a>; rel="prev"'), undefined);
    assert.equal(nextLinkOf(null), undefined);
  });

  it('queryOfNextLink > repeated and single parameters > arrays and strings', () => {
    assert.deepEqual(queryOfNextLink('/v1/pets?id=1&id=2&limit=2&cursor=c', '/pets'), { id: ['1', '2'], limit: '2', cursor: 'c' });
  });

  it('queryOfNextLink > a link to another host or path > refused, so the key is never sent elsewhere', () => {
    assert.throws(() => queryOfNextLink('http://evil.example/v1/pets?cursor=c', '/pets'), /does not point at/);
    assert.throws(() => queryOfNextLink('/v1/store/orders?cursor=c', '/pets'), /does not point at/);
  });

  it('allPages > three pages > every item in order, each page asked with the previous link', async () => {
    const asked: unknown[] = [];
    const pages: Record<string, { items: number[]; link: string | null }> = {
      first: { items: [1, 2], link: '</v1/pets?limit=2&cursor=B>; rel="next"' },
      B: { items: [3, 4], link: '</v1/pets?limit=2&cursor=C>; rel="next"' },
      C: { items: [5], link: null },
    };
    const items: number[] = [];
    for await (const item of allPages('/pets', { limit: 2 } as Record<string, unknown>, async (query) => {
      asked.push(query);
      return pages[(query.cursor as string | undefined) ?? 'first']!;
    })) {
      items.push(item);
    }
    assert.deepEqual(items, [1, 2, 3, 4, 5]);
    assert.deepEqual(asked, [{ limit: 2 }, { limit: '2', cursor: 'B' }, { limit: '2', cursor: 'C' }]);
  });
});
