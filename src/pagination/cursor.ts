/**
 * Page cursors only this service can make, for any listing that walks ascending ids under a set
 * of filters (pets, the store's orders), or ascending positions of several numbers (the events
 * feed's). A cursor holds the last id of the previous
 * page and a digest of the filters it was made for, signed with HMAC-SHA-256 under the service's
 * cursor secret. So a cursor cannot be forged or edited, and one used with other filters is told
 * apart from a forged one and refused with its own message.
 *
 * Layout before base64url (37 bytes, 50 characters): version (1) | last id, uint64 big-endian (8)
 * | filter digest (12) | MAC of everything before it (16). A position of n numbers takes 8n bytes
 * where the last id is.
 */
import { createHmac, createSecretKey, hash, timingSafeEqual } from 'node:crypto';
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

/** The length of a cursor whose position has `parts` numbers. */
function cursorLength(parts: number): number {
  return Math.ceil(((1 + parts * ID_BYTES + DIGEST_BYTES + MAC_BYTES) * 4) / 3);
}

/** Longest cursor text the id codecs make; listings may refuse longer ones before decoding. */
export const CURSOR_MAX_LENGTH = cursorLength(1);

/**
 * A listing's codec under whatever the cursor secret is at the time. Making a codec derives its
 * key (an HMAC), so the codec of the last secret is kept: once per secret, not once per page.
 */
export function cursorCodecPerSecret<F extends CursorFilters>(options: Omit<CursorCodecOptions, 'secret'>): (secret: string) => CursorCodec<F> {
  return perSecret((secret) => createCursorCodec<F>({ ...options, secret }));
}

/** `cursorCodecPerSecret` for a listing whose position has several numbers (the events feed: txn and id). */
export function positionCodecPerSecret<F extends CursorFilters>(
  options: Omit<CursorCodecOptions, 'secret'> & { parts: number },
): (secret: string) => PositionCodec<F> {
  return perSecret((secret) => createPositionCodec<F>({ ...options, secret }));
}

function perSecret<C>(make: (secret: string) => C): (secret: string) => C {
  let kept: { secret: string; codec: C } | undefined;
  return (secret) => {
    if (kept?.secret !== secret) kept = { secret, codec: make(secret) };
    return kept.codec;
  };
}

export function createCursorCodec<F extends CursorFilters>(options: CursorCodecOptions): CursorCodec<F> {
  const codec = createPositionCodec<F>({ ...options, parts: 1 });
  return {
    encode: (afterId, filters) => codec.encode([afterId], filters),
    decode: (cursor, filters) => codec.decode(cursor, filters)[0]!,
  };
}

/** Cursors holding a position of `parts` safe non-negative integers (one: the layout in the header). */
export interface PositionCodec<F extends CursorFilters> {
  encode(position: readonly number[], filters: F): string;
  /** The position the next page starts after; throws `invalid_cursor` for any cursor not made here for these filters. */
  decode(cursor: string, filters: F): number[];
}

function createPositionCodec<F extends CursorFilters>(options: CursorCodecOptions & { parts: number }): PositionCodec<F> {
  const { parts } = options;
  const signedBytes = 1 + parts * ID_BYTES + DIGEST_BYTES;
  const shape = new RegExp(`^[A-Za-z0-9_-]{${cursorLength(parts)}}$`);
  // One key per listing, derived from the secret, so cursors of different listings never match.
  // A KeyObject, made once: given raw bytes, createHmac imports the key again at every call.
  const key = createSecretKey(createHmac('sha256', options.secret).update(`animal-store cursor key: ${options.listing}`).digest());
  const mac = (signed: Buffer) => createHmac('sha256', key).update(signed).digest().subarray(0, MAC_BYTES);
  const notOurs = () => new AppError('invalid_cursor', 'cursor is not a cursor this service made; use the Link header of the previous page');

  const sign = (position: readonly number[], digest: Buffer): string => {
    const signed = Buffer.alloc(signedBytes);
    signed.writeUInt8(VERSION, 0);
    position.forEach((part, i) => {
      if (!Number.isSafeInteger(part) || part < 0) throw new Error(`cursor position must be a safe non-negative integer, got ${part}`);
      signed.writeBigUInt64BE(BigInt(part), 1 + i * ID_BYTES);
    });
    digest.copy(signed, 1 + parts * ID_BYTES);
    return Buffer.concat([signed, mac(signed)]).toString('base64url');
  };
  // Cursors made, by position and filters: the first pages are asked most, and each asks for the
  // same next cursor until the data changes. Bounded as the digests are.
  const made = new Map<string, string>();

  return {
    encode(position, filters) {
      if (position.length !== parts) throw new Error(`a cursor position of this listing has ${parts} numbers, got ${position.length}`);
      const canonical = canonicalFilters(filters);
      const key = `${position.join()} ${canonical}`;
      let cursor = made.get(key);
      if (cursor === undefined) {
        cursor = sign(position, digestOf(canonical, { keep: true }));
        if (canonical.length <= MAX_KEPT_FILTERS_LENGTH) {
          if (made.size >= MAX_KEPT) made.clear();
          made.set(key, cursor);
        }
      }
      return cursor;
    },
    decode(cursor, filters) {
      if (!shape.test(cursor)) throw notOurs();
      const bytes = Buffer.from(cursor, 'base64url');
      // Spare bits in the last character would let several texts decode alike: only ours passes.
      if (bytes.toString('base64url') !== cursor) throw notOurs();
      const signed = bytes.subarray(0, signedBytes);
      if (bytes.length !== signedBytes + MAC_BYTES || !timingSafeEqual(bytes.subarray(signedBytes), mac(signed))) throw notOurs();
      // Only this service signs, so the rest is well formed; checked anyway, as a second lock.
      const position = Array.from({ length: parts }, (_, i) => signed.readBigUInt64BE(1 + i * ID_BYTES));
      if (signed.readUInt8(0) !== VERSION || position.some((part) => part > BigInt(Number.MAX_SAFE_INTEGER))) throw notOurs();
      if (!signed.subarray(1 + parts * ID_BYTES).equals(digestOf(canonicalFilters(filters), { keep: false }))) {
        throw new AppError(
          'invalid_cursor',
          `cursor was made for other filters; send the same ${options.filterNames.join(', ')} as the request whose Link header it came from (limit may change), or start again without a cursor`,
        );
      }
      return position.map(Number);
    },
  };
}

/** Past this many entries a codec's kept cursors, or the kept digests, are dropped: a client sending a million kinds only churns the map. */
const MAX_KEPT = 1000;
/** Filters longer than this (a long name prefix) are rare, and not kept: a thousand of them would hold megabytes. */
const MAX_KEPT_FILTERS_LENGTH = 256;

/** Digests kept by canonical filters: most pages are asked under a few sets of them. */
const digests = new Map<string, Buffer>();

/** The filters in a canonical form: parameter order and absent filters do not matter. */
function canonicalFilters(filters: CursorFilters): string {
  return JSON.stringify(
    Object.keys(filters)
      .filter((name) => filters[name] !== undefined)
      .sort()
      .map((name) => [name, filters[name]]),
  );
}

/**
 * The digest a cursor carries of its canonical filters. Kept for the cursors the service makes;
 * a cursor checked against other filters (any client may send any) only looks. Only read: the
 * kept buffers are shared.
 */
function digestOf(canonical: string, { keep }: { keep: boolean }): Buffer {
  let digest = digests.get(canonical);
  if (digest === undefined) {
    digest = hash('sha256', canonical, 'buffer').subarray(0, DIGEST_BYTES);
    if (keep && canonical.length <= MAX_KEPT_FILTERS_LENGTH) {
      if (digests.size >= MAX_KEPT) digests.clear();
      digests.set(canonical, digest);
    }
  }
  return digest;
}
