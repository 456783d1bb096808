/**
 * The sample store that the examples of openapi.json describe. Swagger UI at /docs fills every
 * example into "Try it out", so each example names a row in the state its operation needs, and
 * operations that use up what they act on (a change of status, a removal, an order's transition)
 * name rows of their own: on a store with these rows, each operation answers its success at the
 * first click, in any order. No example where none can be right: no `cursor` (only the service
 * can sign one), no `If-Match` (without it a change applies unconditionally), no
 * `Idempotency-Key` (a fixed one would replay its first answer to every later click).
 * test/e2e/docs.browser.e2e.test.ts seeds these rows and clicks every operation.
 */
export const SAMPLE_STORE = {
  /** Rex, category 3, available: getPet reads it, listPets's filter examples (`categoryId`, `name`) find it, placeOrder orders it. */
  petToRead: 42,
  petToOrder: 42,
  /** Bella, with no order: updatePet's first example (`{"status":"sold"}`) changes her status. */
  petToChange: 41,
  /** An animal with no open order: deletePet removes it. */
  petToRemove: 40,
  /** A placed order: getOrder reads it and approveOrder approves it (approved, it is still readable). */
  orderToRead: 7,
  orderToApprove: 7,
  /** An approved order: deliverOrder delivers it. */
  orderToDeliver: 8,
  /** An open order: cancelOrder cancels it. */
  orderToCancel: 9,
  /** A webhook endpoint: getWebhookEndpoint reads it, updateWebhookEndpoint's first example (`{"status":"enabled"}`) and rotateWebhookEndpointSecret change it and leave it usable. */
  webhookEndpointToRead: 1,
  /** Another webhook endpoint: deleteWebhookEndpoint removes it. */
  webhookEndpointToRemove: 2,
  /** A delivery of the first endpoint (its test message): retryWebhookDelivery sends it again. */
  webhookDeliveryToRetry: 1,
  /** The store's first API key, the one the page is used with: getApiKey reads it. */
  apiKeyToRead: 1,
  /** A second key, holding scopes the first holds: revokeApiKey revokes it (and answers 204 again after). */
  apiKeyToRevoke: 2,
} as const;
