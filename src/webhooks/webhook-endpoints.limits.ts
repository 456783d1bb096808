/** Bounds of the webhook endpoints, apart so the error list (errors.ts) quotes them without importing the service. */

/** Most endpoints a store may have: each costs a delivery per event, so a key cannot make a million. */
export const WEBHOOK_ENDPOINTS_MAX = 100;
