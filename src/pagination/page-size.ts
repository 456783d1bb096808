/** The page size every listing takes: `limit`, its bounds and its default, declared once. */
import { Type } from '@sinclair/typebox';

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/** The `limit` query parameter of a listing of `things` (such as "animals"). */
export function pageLimitSchema(things: string) {
  return Type.Optional(
    Type.Integer({
      minimum: PAGE_SIZE.min,
      maximum: PAGE_SIZE.max,
      default: PAGE_SIZE.default,
      description: `Maximum number of ${things} returned: a whole number from ${PAGE_SIZE.min} to ${PAGE_SIZE.max} written in decimal digits; ${PAGE_SIZE.default} when omitted.`,
    }),
  );
}
