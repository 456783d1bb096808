/**
 * Page cursors only this service can make, for any listing that walks ascending ids under a set
 * of filters (pets today, the store's orders next). A cursor holds the last id of the previous
 * page and a digest of the filters it was made for, signed with HMAC-SHA-256 under the service's
 * cursor secret. So a cursor cannot be forged or edited, and one used with other filters is told
 * apart from a forged one and refused with its own message.
 *
 * Layout before base64url (37 bytes, 50 characters): version (1) | last id, uint64 big-endian (8)
 * | filter digest (12) | MAC of everything before it (16).
 */
import { createHash, createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';

/** Filter values as the listing received them, already canonical (a set of ids sorted, say). */
export type CursorFilters = Record<string, string | number | boolean | readonly number[] | readonly string[] | undefined>;

export interface CursorCodec<F extends CursorFilters> {
  encode(afterId: number, filters: F): string;
  /** The id the next page starts after; throws `invalid_cursor` for any cursor not made here for these filters. */
  decode(cursor: string, filters: F): number;
}

export interface CursorCodecOptions {
  /** The service's cursor secret (see cursor-secret.ts). */
  secret: string;
  /** What the cursors page through, such as `pets`: a cursor of one listing is refused by another. */
  listing: string;
  /** The filter parameters, named in the message when a cursor is used with other filters. */
  filterNames: readonly string[];
}

const VERSION = 2;
const ID_BYTES = 8;
const DIGEST_BYTES = 12;
const MAC_BYTES = 16;
const SIGNED_BYTES = 1 + ID_BYTES + DIGEST_BYTES;
const CURSOR_LENGTH = Math.ceil(((SIGNED_BYTES + MAC_BYTES) * 4) / 3);
const CURSOR_SHAPE = new RegExp(`^[A-Za-z0-9_-]{${CURSOR_LENGTH}}$`);

/** Longest cursor text any codec makes; listings may refuse longer ones before decoding. */
export const CURSOR_MAX_LENGTH = CURSOR_LENGTH;

/**
 * A listing's codec under whatever the cursor secret is at the time. Making a codec derives its
 * key (an HMAC), so the codec of the last secret is kept: once per secret, not once per page.
 */
export function cursorCodecPerSecret<F extends CursorFilters>(options: Omit<CursorCodecOptions, 'secret'>): (secret: string) => CursorCodec<F> {
  let kept: { secret: string; cursors: CursorCodec<F> } | undefined;
  return (secret) => {
    if (kept?.secret !== secret) kept = { secret, cursors: createCursorCodec<F>({ ...options, secret }) };
    return kept.cursors;
  };
}

export function createCursorCodec<F extends CursorFilters>(options: CursorCodecOptions): CursorCodec<F> {
  // One key per listing, derived from the secret, so cursors of different listings never match.
  // A KeyObject, made once: given raw bytes, createHmac imports the key again at every call.
  const key = createSecretKey(createHmac('sha256', options.secret).update(`animal-store cursor key: ${options.listing}`).digest());
  const mac = (signed: Buffer) => createHmac('sha256', key).update(signed).digest().subarray(0, MAC_BYTES);
  const notOurs = () => new AppError('invalid_cursor', 'cursor is not a cursor this service made; use the Link header of the previous page');

  return {
    encode(afterId, filters) {
      if (!Number.isSafeInteger(afterId) || afterId < 0) throw new Error(`cursor position must be a safe non-negative integer, got ${afterId}`);
      const signed = Buffer.alloc(SIGNED_BYTES);
      signed.writeUInt8(VERSION, 0);
      signed.writeBigUInt64BE(BigInt(afterId), 1);
      filterDigest(filters).copy(signed, 1 + ID_BYTES);
      return Buffer.concat([signed, mac(signed)]).toString('base64url');
    },
    decode(cursor, filters) {
      if (!CURSOR_SHAPE.test(cursor)) throw notOurs();
      const bytes = Buffer.from(cursor, 'base64url');
      // Spare bits in the last character would let several texts decode alike: only ours passes.
      if (bytes.toString('base64url') !== cursor) throw notOurs();
      const signed = bytes.subarray(0, SIGNED_BYTES);
      if (bytes.length !== SIGNED_BYTES + MAC_BYTES || !timingSafeEqual(bytes.subarray(SIGNED_BYTES), mac(signed))) throw notOurs();
      // Only this service signs, so the rest is well formed; checked anyway, as a second lock.
      const afterId = signed.readBigUInt64BE(1);
      if (signed.readUInt8(0) !== VERSION || afterId > BigInt(Number.MAX_SAFE_INTEGER)) throw notOurs();
      if (!signed.subarray(1 + ID_BYTES).equals(filterDigest(filters))) {
        throw new AppError(
          'invalid_cursor',
          `cursor was made for other filters; send the same ${options.filterNames.join(', ')} as the request whose Link header it came from (limit may change), or start again without a cursor`,
        );
      }
      return Number(afterId);
    },
  };
}

/** A digest of the filters in a canonical form: parameter order and absent filters do not matter. */
function filterDigest(filters: CursorFilters): Buffer {
  const canonical = Object.keys(filters)
    .filter((name) => filters[name] !== undefined)
    .sort()
    .map((name) => [name, filters[name]]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest().subarray(0, DIGEST_BYTES);
}
