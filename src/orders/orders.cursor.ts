/** The orders listing's cursors: the generic signed codec (pagination/cursor.ts), bound to the orders' filters. */
import type { OrderStatus } from '../db/database.js';
import { type CursorCodec, createCursorCodec } from '../pagination/cursor.js';

export interface OrderCursorFilters {
  [name: string]: string | number | undefined;
  status?: OrderStatus | undefined;
  petId?: number | undefined;
}

export function orderCursors(secret: string): CursorCodec<OrderCursorFilters> {
  return createCursorCodec<OrderCursorFilters>({ secret, listing: 'orders', filterNames: ['status', 'petId'] });
}
