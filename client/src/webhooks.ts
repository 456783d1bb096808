/**
 * Checking a webhook delivery as Standard Webhooks (standardwebhooks.com) defines it: the
 * `webhook-signature` header holds `v1,<base64 HMAC-SHA256>` signatures of
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded bytes of the
 * endpoint's secret after `whsec_`. Web Crypto only (`crypto.subtle`), so it runs wherever the
 * client does; `crypto.subtle.verify` compares the signature in constant time.
 */
import type { Event } from './events.js';
import type { components } from './openapi.js';

/** The body of `POST /v1/webhook-endpoints/{id}/test`: signed and sent like an event, no event of the feed. */
export type WebhookTestEvent = components['schemas']['WebhookTestEvent'];

/** What a delivery carries: an Event of the feed, or a test message. */
export type WebhookPayload = Event | WebhookTestEvent;

export type WebhookVerificationFailure =
  /** `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty. */
  | 'missing_headers'
  /** `webhook-timestamp` is not whole Unix seconds. */
  | 'invalid_timestamp'
  /** Older than the tolerance: a replay, or a delivery held too long. */
  | 'timestamp_too_old'
  /** Further ahead than the tolerance. */
  | 'timestamp_too_new'
  /** No `v1` signature matches any of the secrets (also: the body, id or timestamp was changed). */
  | 'no_matching_signature'
  /** Signed correctly, but the body is not JSON. */
  | 'invalid_payload';

/** A delivery that must not be trusted; `reason` says why. Answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way; 300 s (5 minutes) by default. */
  toleranceSeconds?: number;
  /** The current time in milliseconds; `Date.now` by default (for tests). */
  now?: () => number;
}

/** Request headers as a `Headers` (fetch, Request) or a plain object with names in any case (Node's `req.headers`). */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(' ');
  }
  return undefined;
}

/** Standard base64 to bytes; undefined when it is not base64. */
function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

async function importSecret(secret: string) {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const bytes = base64Bytes(encoded);
  // A wrong secret is a mistake of the receiver's configuration, not of the delivery: say so loudly.
  if (bytes === undefined || bytes.length === 0)
    throw new TypeError('verifyWebhook: a secret is "whsec_" followed by base64, as the service showed it when the endpoint was created');
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

/** The decoded `v1` signatures of the header; other versions (`v1a,…`) and unreadable entries are passed over. */
function v1Signatures(header: string): Uint8Array<ArrayBuffer>[] {
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const entry of header.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const bytes = base64Bytes(entry.slice(comma + 1));
    if (bytes !== undefined) signatures.push(bytes);
  }
  return signatures;
}

function signedContent(id: string, timestamp: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const rest = typeof body === 'string' ? encoder.encode(body) : body;
  const content = new Uint8Array(prefix.length + rest.length);
  content.set(prefix);
  content.set(rest, prefix.length);
  return content;
}

/**
 * The payload of a webhook delivery (an Event, or a `webhook.test` message), once its signature and timestamp are checked; throws
 * WebhookVerificationError otherwise. `body` must be the request's raw body, byte for byte as it
 * came (a string or bytes): a body parsed and serialised again no longer matches its signature.
 * `secret` may be several (during a rotation): any one matching suffices.
 */
export async function verifyWebhook(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookPayload> {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('verifyWebhook: no secret given');
  const keys = await Promise.all(secrets.map(importSecret));

  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signature = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signature)
    throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are all required');

  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not whole Unix seconds');
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const sentAt = Number(timestamp);
  if (nowSeconds - sentAt > toleranceSeconds)
    throw new WebhookVerificationError('timestamp_too_old', `webhook-timestamp is more than ${toleranceSeconds} s old`);
  if (sentAt - nowSeconds > toleranceSeconds)
    throw new WebhookVerificationError('timestamp_too_new', `webhook-timestamp is more than ${toleranceSeconds} s ahead`);

  const content = signedContent(id, timestamp, body);
  const candidates = v1Signatures(signature);
  let matched = false;
  for (const key of keys) {
    for (const candidate of candidates) matched ||= await crypto.subtle.verify('HMAC', key, candidate, content);
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'no v1 signature of webhook-signature matches the secret');

  try {
    return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as WebhookPayload;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is signed but is not JSON');
  }
}
