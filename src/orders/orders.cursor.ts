/** The orders listing's cursors: the generic signed codec (pagination/cursor.ts), bound to the orders' filters. */
import type { OrderStatus } from '../db/database.js';
import { cursorCodecPerSecret } from '../pagination/cursor.js';

export interface OrderCursorFilters {
  [name: string]: string | number | undefined;
  status?: OrderStatus | undefined;
  petId?: number | undefined;
}

export const orderCursors = cursorCodecPerSecret<OrderCursorFilters>({ listing: 'orders', filterNames: ['status', 'petId'] });
