import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { createCursorCodec, CURSOR_MAX_LENGTH } from '../../src/pagination/cursor.js';

type Filters = { status?: string | undefined; id?: readonly number[] | undefined; name?: string | undefined };
const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const codec = (secret = SECRET, listing = 'pets') => createCursorCodec<Filters>({ secret, listing, filterNames: ['status', 'name', 'id'] });

function assertRefused(decode: () => unknown, message: RegExp) {
  assert.throws(decode, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'invalid_cursor');
    assert.equal(error.status, 400);
    assert.match(error.message, message);
    return true;
  });
}
const NOT_OURS = /^cursor is not a cursor this service made; use the Link header of the previous page$/;
const OTHER_FILTERS =
  /^cursor was made for other filters; send the same status, name, id as the request whose Link header it came from \(limit may change\), or start again without a cursor$/;

describe('cursor codec', () => {
  it('encode then decode with the same filters > answers the position', () => {
    for (const afterId of [0, 1, 40, Number.MAX_SAFE_INTEGER]) {
      const cursor = codec().encode(afterId, { status: 'sold', id: [7, 9] });
      assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      assert.ok(cursor.length <= CURSOR_MAX_LENGTH);
      assert.equal(codec().decode(cursor, { status: 'sold', id: [7, 9] }), afterId);
    }
  });

  it('filters given in another order, or absent ones spelled undefined > are the same filters', () => {
    const cursor = codec().encode(5, { name: 'rex', status: 'sold' });
    assert.equal(codec().decode(cursor, { status: 'sold', name: 'rex', id: undefined }), 5);
  });

  it('a forged unsigned cursor, as the service made them before > is refused as not made here', () => {
    const forged = Buffer.from('{"v":1,"a":40,"s":null}').toString('base64url');
    assertRefused(() => codec().decode(forged, {}), NOT_OURS);
  });

  it('a cursor with any one bit changed > is refused as not made here', () => {
    const cursor = codec().encode(40, {});
    const bytes = Buffer.from(cursor, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const tampered = Buffer.from(bytes);
        tampered[i]! ^= 1 << bit;
        assertRefused(() => codec().decode(tampered.toString('base64url'), {}), NOT_OURS);
      }
    }
  });

  it('a cursor whose position was raised and the MAC kept > is refused', () => {
    const bytes = Buffer.from(codec().encode(40, {}), 'base64url');
    bytes.writeBigUInt64BE(41n, 1);
    assertRefused(() => codec().decode(bytes.toString('base64url'), {}), NOT_OURS);
  });

  it('a truncated or extended cursor > is refused as not made here', () => {
    const cursor = codec().encode(40, {});
    for (const text of [cursor.slice(0, -1), cursor.slice(0, -4), cursor.slice(0, 10), `${cursor}A`, `${cursor}AAAA`, '']) {
      assertRefused(() => codec().decode(text, {}), NOT_OURS);
    }
  });

  it('a cursor spelled with other spare bits in its last character > is refused', () => {
    const cursor = codec().encode(40, {});
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(cursor.at(-1)!);
    const respelled = `${cursor.slice(0, -1)}${alphabet[last ^ 1]}`;
    assert.deepEqual(Buffer.from(respelled, 'base64url'), Buffer.from(cursor, 'base64url'), 'the same bytes');
    assertRefused(() => codec().decode(respelled, {}), NOT_OURS);
  });

  it('a cursor made with another secret > is refused as not made here', () => {
    const cursor = codec('another-secret-of-thirty-two-characters!').encode(40, {});
    assertRefused(() => codec().decode(cursor, {}), NOT_OURS);
  });

  it('a cursor of another listing, with the same secret > is refused as not made here', () => {
    const cursor = codec(SECRET, 'orders').encode(40, {});
    assertRefused(() => codec(SECRET, 'pets').decode(cursor, {}), NOT_OURS);
  });

  it('a cursor used with other filters > is refused saying so, for each filter', () => {
    const made: Filters = { status: 'sold', name: 'rex', id: [7, 9] };
    const cursor = codec().encode(40, made);
    for (const other of [
      {},
      { ...made, status: 'available' },
      { ...made, status: undefined },
      { ...made, name: 're' },
      { ...made, id: [7] },
      { ...made, id: [7, 9, 11] },
    ]) {
      assertRefused(() => codec().decode(cursor, other), OTHER_FILTERS);
    }
  });

  it('a position that is not a safe non-negative integer > cannot be encoded', () => {
    for (const afterId of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) assert.throws(() => codec().encode(afterId, {}));
  });

  it('cursors kept for reuse, past the bound of kept ones > each is the one a new codec makes, for its own position and filters only', () => {
    const kept = codec();
    // More sets of filters and positions than are kept (1,000), each asked twice, the second time from what was kept.
    const asked = Array.from({ length: 1500 }, (_, i) => ({ afterId: i % 7, filters: { name: `n${i}`, status: i % 2 ? 'sold' : undefined } }));
    for (let round = 0; round < 2; round++) {
      for (const { afterId, filters } of asked) {
        const cursor = kept.encode(afterId, filters);
        assert.equal(cursor, codec().encode(afterId, filters));
        assert.equal(kept.decode(cursor, filters), afterId);
        assertRefused(() => kept.decode(cursor, { ...filters, name: `${filters.name}x` }), OTHER_FILTERS);
      }
    }
    assert.notEqual(kept.encode(1, { name: 'a' }), kept.encode(2, { name: 'a' }));
  });
});
