/** The OpenAPI prose of the store's orders, kept apart so the routes read at a glance. */
import { stateMachineTable } from './orders.state-machine.js';

const CONCURRENCY =
  'An order and its animal change in one transaction: no reader ever sees one changed without the other. Of concurrent requests that would both succeed alone (two orders for one animal, a `cancel` racing a `deliver`), exactly one does and the others answer 409, on any number of instances.';

export const STORE_TAG = {
  name: 'store',
  description: `The store's orders, which sell animals. **Beta.** An order is for one animal and drives that animal's status:

${stateMachineTable()}

Any other action answers 409 \`order_state_conflict\` naming the order's status. An order needs an \`available\` animal (else 409 \`pet_not_available\`). While an animal has an open order (\`placed\` or \`approved\`), \`updatePet\` may change its name and category but not its status, and \`deletePet\` is refused: both answer 409 \`pet_has_open_order\`. An animal sold by a delivered order stays \`sold\` (409 \`pet_sold_by_order\`), but may be removed; its orders stay readable with its \`petId\`.

${CONCURRENCY}`,
};

export const PLACE_ORDER_DESCRIPTION = `Places an order for an available animal, which becomes \`pending\` in the same transaction. The body is checked as strictly as \`createPet\`'s: only \`petId\`, an integer.

${CONCURRENCY}`;

export const LIST_ORDERS_DESCRIPTION = `Returns at most \`limit\` orders in ascending id order, optionally only those with a \`status\` or for one animal (\`petId\`); both filters combine.

**Pagination.** As for \`listPets\`: when more orders follow, the response carries \`Link: </v1/store/orders?…&cursor=…>; rel="next"\` (RFC 8288); follow it until no such link comes. The body stays a bare JSON array. A walk returns every matching order that existed when it began exactly once, in id order; one placed during the walk may or may not come (on PostgreSQL ids commit in any order); a client that must mirror the orders exactly follows the events feed. Cursors are signed and bound to the filters; \`limit\` may change between pages.`;

export const ACTION_DESCRIPTIONS = {
  approve: 'Approves a `placed` order. The animal stays `pending`.',
  deliver: 'Delivers an `approved` order: the animal becomes `sold`, for good.',
  cancel: 'Cancels an open (`placed` or `approved`) order: the animal becomes `available` again.',
} as const;

export const ACTION_NOTE = `Takes no body (an empty JSON object \`{}\` is accepted too). Answers the order as it now is. ${CONCURRENCY}`;
