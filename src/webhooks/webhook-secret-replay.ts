/**
 * Retries under the same Idempotency-Key of the answers that carry a webhook endpoint's signing
 * secret (create, rotate-secret, a PATCH that widened allowedTypes; a PATCH answer without a secret
 * is kept and replayed as it is). The idempotency record keeps the answer with the secret replaced
 * by its SHA-256, so no secret lies at rest there (nor outlives a rotation or a removal there). A
 * replay answers the first answer exactly, the secret put back from the endpoint, while that secret
 * is still the endpoint's; once it is not (rotated since, or the endpoint removed) the replay is
 * refused with 409 `webhook_secret_superseded` rather than hand out a superseded secret. A fast hash
 * is right: the secret has 256 random bits, nothing to brute-force.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import type { KeptAnswerTransform } from '../idempotency/idempotency.hooks.js';
import { findWebhookEndpointById } from './webhook-endpoints.repository.js';

/** What the kept answer holds in place of the secret: this, then the secret's SHA-256 in hex. */
const KEPT_SECRET_PREFIX = 'kept-sha256:';

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

interface AnswerWithSecret {
  id: number;
  /** Absent from a PATCH answer that replaced no secret. */
  secret?: string;
}

export function webhookSecretKeptAsHash(db: Kysely<Database>): KeptAnswerTransform {
  return {
    toKept(body) {
      const { secret } = JSON.parse(body) as AnswerWithSecret;
      return secret === undefined ? body : swap(body, secret, `${KEPT_SECRET_PREFIX}${hashOf(secret)}`);
    },
    async toReplayed(kept) {
      const { id, secret: keptSecret } = JSON.parse(kept) as AnswerWithSecret;
      if (keptSecret === undefined) return kept;
      const endpoint = await findWebhookEndpointById(db, id);
      if (!endpoint || `${KEPT_SECRET_PREFIX}${hashOf(endpoint.secret)}` !== keptSecret) {
        throw new AppError(
          'webhook_secret_superseded',
          `the first answer to this Idempotency-Key carried a signing secret that webhook endpoint ${id} no longer has (rotated since, or the endpoint removed); it is not answered again`,
        );
      }
      return swap(kept, keptSecret, endpoint.secret);
    },
  };
}

/** The body with the JSON string `from` written as `to`, everything else byte for byte as it was. */
function swap(body: string, from: string, to: string): string {
  const quoted = JSON.stringify(from);
  if (!body.includes(quoted)) throw new Error('the answer does not hold its secret as expected');
  return body.replace(quoted, () => JSON.stringify(to));
}
