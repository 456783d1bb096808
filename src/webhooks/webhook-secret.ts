/**
 * Signing secrets of webhook endpoints, as Standard Webhooks writes them: `whsec_` and the base64
 * of random bytes (the spec asks for 24 to 64; 32 here, the size of an HMAC-SHA256 key). The
 * receiver keys its HMAC with the decoded bytes, not with the text. Unlike an API key the secret
 * is stored as it is: the service signs with it.
 */
import { randomBytes } from 'node:crypto';

const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;
}

/** How long the secret a rotation replaced still signs deliveries, beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;
