/**
 * Standard Webhooks signatures (standardwebhooks.com): `v1,<base64 HMAC-SHA256>` of
 * `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the bytes the secret encodes in base64
 * after its `whsec_` prefix. During a rotation the previous secret signs too: the header then holds
 * both signatures, space-separated, and a receiver accepts the message when any one verifies.
 */
import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** The key bytes of a `whsec_…` secret (the spec's base64 after the prefix). */
export function secretKeyBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook signing secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export interface SignedMessage {
  /** The `webhook-id` header. */
  id: string;
  /** The `webhook-timestamp` header: whole seconds since the epoch, at send time. */
  timestamp: number;
  /** The body exactly as sent. */
  body: string;
}

/** One `v1,…` signature of the message with one secret. */
export function signatureOf(secret: string, message: SignedMessage): string {
  const hmac = createHmac('sha256', secretKeyBytes(secret)).update(`${message.id}.${message.timestamp}.${message.body}`).digest('base64');
  return `v1,${hmac}`;
}

/** The `webhook-signature` header: one signature per secret still signing, the current one first. */
export function signatureHeader(secrets: readonly string[], message: SignedMessage): string {
  return secrets.map((secret) => signatureOf(secret, message)).join(' ');
}
