/** The orders listing's cursors: the generic signed codec (pagination/cursor.ts), bound to the orders' filters. */
import type { OrderStatus } from '../db/database.js';
import { type CursorCodec, createCursorCodec } from '../pagination/cursor.js';

export interface OrderCursorFilters {
  [name: string]: string | number | undefined;
  status?: OrderStatus | undefined;
  petId?: number | undefined;
}

// The codec of the last secret, kept: making one derives its key (an HMAC), once per secret, not per page.
let codec: { secret: string; cursors: CursorCodec<OrderCursorFilters> } | undefined;

export function orderCursors(secret: string): CursorCodec<OrderCursorFilters> {
  if (codec?.secret !== secret) codec = { secret, cursors: createCursorCodec<OrderCursorFilters>({ secret, listing: 'orders', filterNames: ['status', 'petId'] }) };
  return codec.cursors;
}
