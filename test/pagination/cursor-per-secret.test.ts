/** cursorCodecPerSecret: one listing's codec kept while the cursor secret stays, made anew when it changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { cursorCodecPerSecret } from '../../src/pagination/cursor.js';

type Filters = { status?: string | undefined };
const OLD_SECRET = 'an-old-secret-of-at-least-thirty-two-characters';
const NEW_SECRET = 'a-new-secret-of-at-least-thirty-two-characters!';

describe('cursorCodecPerSecret', () => {
  it('the same secret twice > answers the same codec, not one made again', () => {
    const cursors = cursorCodecPerSecret<Filters>({ listing: 'pets', filterNames: ['status'] });
    assert.equal(cursors(OLD_SECRET), cursors(OLD_SECRET));
  });

  it('after the secret changed > signs with the new secret and refuses cursors of the old one', () => {
    const cursors = cursorCodecPerSecret<Filters>({ listing: 'pets', filterNames: ['status'] });
    const old = cursors(OLD_SECRET).encode(40, { status: 'sold' });
    const fresh = cursors(NEW_SECRET);
    assert.equal(fresh.decode(fresh.encode(41, { status: 'sold' }), { status: 'sold' }), 41);
    assert.throws(
      () => fresh.decode(old, { status: 'sold' }),
      (error: unknown) => error instanceof AppError && error.code === 'invalid_cursor',
    );
  });

  it('two listings > keep codecs of their own, whose cursors the other refuses', () => {
    const pets = cursorCodecPerSecret<Filters>({ listing: 'pets', filterNames: ['status'] });
    const orders = cursorCodecPerSecret<Filters>({ listing: 'orders', filterNames: ['status'] });
    const cursor = pets(OLD_SECRET).encode(7, {});
    assert.throws(
      () => orders(OLD_SECRET).decode(cursor, {}),
      (error: unknown) => error instanceof AppError && error.code === 'invalid_cursor',
    );
  });
});
