/**
 * The store's state machine, as data: which order statuses each action moves from and to, and
 * what the pet becomes. The service applies it and the documentation (docs/api.md, openapi.json) is
 * written from it, so the rule lives in one place. Pure: no database, no HTTP.
 */
import type { OrderStatus, PetStatus } from '../db/database.js';

export const ORDER_STATUSES = ['placed', 'approved', 'delivered', 'cancelled'] as const satisfies readonly OrderStatus[];

/** An open order holds its pet: the pet is `pending` and keeps that status until the order closes. */
const OPEN_ORDER_STATUSES = ['placed', 'approved'] as const satisfies readonly OrderStatus[];

export function isOpen(status: OrderStatus): boolean {
  return (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status);
}

/** Placing an order: the pet must have `petFrom`; the order starts as `order`, the pet becomes `petTo`. */
export const PLACEMENT = { petFrom: 'available', order: 'placed', petTo: 'pending' } as const satisfies {
  petFrom: PetStatus;
  order: OrderStatus;
  petTo: PetStatus;
};

export type OrderAction = 'approve' | 'deliver' | 'cancel';

export interface OrderTransition {
  from: readonly OrderStatus[];
  to: OrderStatus;
  /** What the pet becomes; absent when it keeps its status. */
  pet?: PetStatus;
}

export const ORDER_TRANSITIONS: Record<OrderAction, OrderTransition> = {
  approve: { from: ['placed'], to: 'approved' },
  deliver: { from: ['approved'], to: 'delivered', pet: 'sold' },
  cancel: { from: ['placed', 'approved'], to: 'cancelled', pet: 'available' },
};

export const ORDER_ACTIONS = Object.keys(ORDER_TRANSITIONS) as OrderAction[];

/** "deliver applies only to an approved order": what a refused action says it needs. */
export function appliesOnlyTo(action: OrderAction): string {
  const statuses = ORDER_TRANSITIONS[action].from.join(' or ');
  return `${action} applies only to ${/^[aeiou]/.test(statuses) ? 'an' : 'a'} ${statuses} order`;
}

const code = (text: string) => `\`${text}\``;

/** The state machine as a Markdown table: in docs/api.md and in the OpenAPI `store` tag. */
export function stateMachineTable(): string {
  const rows = [
    `| ${code('POST /v1/store/orders')} | — | ${code(PLACEMENT.order)} | ${code(PLACEMENT.petFrom)} → ${code(PLACEMENT.petTo)} |`,
    ...ORDER_ACTIONS.map((action) => {
      const { from, to, pet } = ORDER_TRANSITIONS[action];
      return `| ${code(`POST /v1/store/orders/{orderId}/${action}`)} | ${from.map(code).join(' or ')} | ${code(to)} | ${pet ? `→ ${code(pet)}` : 'stays ' + code(PLACEMENT.petTo)} |`;
    }),
  ];
  return ['| request | order from | order to | pet |', '|---|---|---|---|', ...rows].join('\n');
}
