/**
 * Revocations across a fleet: `keys revoke` (or `DELETE /v1/api-keys/{id}` on any instance)
 * publishes the revoked key's id, and every instance
 * subscribed drops the key from its cache at once, instead of serving it until KEY_CACHE_TTL_MS
 * runs out. The database stays the truth: a missed message (Redis down) only means the cache's
 * TTL bounds the delay, as it does without Redis.
 */
import { Redis } from 'ioredis';
import type { RedisLink } from '../redis/redis-link.js';
import type { KeyVerifier } from './keys.service.js';

const REVOCATION_CHANNEL = 'key-revoked';

export function subscribeToRevocations(link: RedisLink, verifier: KeyVerifier, onError: (error: unknown) => void): void {
  link
    .subscribe(REVOCATION_CHANNEL, (message) => {
      // Anyone who can publish on the channel can only make a key be looked up again, never accepted.
      if (/^\d{1,15}$/.test(message)) verifier.forget(Number(message));
    })
    .catch(onError);
}

/**
 * A revocation made by this instance (`DELETE /v1/api-keys/{id}`): dropped from its own cache at
 * once, then published on the link it already holds, when there is one. A publication that fails
 * is reported; the other instances' caches' TTL then bounds the delay.
 */
export function announceRevocation(verifier: KeyVerifier, link: RedisLink | undefined, keyId: number, onError: (error: unknown) => void): void {
  verifier.forget(keyId);
  link?.commands.publish(`${link.keyPrefix}${REVOCATION_CHANNEL}`, String(keyId)).catch(onError);
}

/** Publishes a revocation; answers how many instances heard it. Fails within about a second when Redis does not answer. */
export async function publishRevocation(redisUrl: string, keyPrefix: string, keyId: number): Promise<number> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1000, commandTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return await client.publish(`${keyPrefix}${REVOCATION_CHANNEL}`, String(keyId));
  } finally {
    client.disconnect();
  }
}
