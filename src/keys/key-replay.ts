/**
 * Retries under the same Idempotency-Key of the answer that made an API key. The idempotency
 * record keeps that answer with the key replaced by its SHA-256 (the hash the store already keeps),
 * so no usable key lies at rest there. A key cannot be shown twice, so a replay answers 409
 * `api_key_already_issued` naming the key it made, instead of making a second one.
 */
import { AppError } from '../errors.js';
import type { KeptAnswerTransform } from '../idempotency/idempotency.hooks.js';
import { hashApiKey } from './api-key-token.js';

/** What the kept answer holds in place of the key: this, then the key's SHA-256 in hex. */
const KEPT_KEY_PREFIX = 'kept-sha256:';

interface AnswerWithKey {
  id: number;
  prefix: string;
  key: string;
}

export const apiKeyKeptAsHash: KeptAnswerTransform = {
  toKept(body) {
    const answer = JSON.parse(body) as AnswerWithKey;
    return JSON.stringify({ ...answer, key: `${KEPT_KEY_PREFIX}${hashApiKey(answer.key)}` });
  },
  toReplayed(kept) {
    const { id, prefix } = JSON.parse(kept) as AnswerWithKey;
    return Promise.reject(
      new AppError(
        'api_key_already_issued',
        `the first request with this Idempotency-Key made API key ${id} (${prefix}…), shown in that answer only; it is not shown again: use it, or revoke it and make another`,
      ),
    );
  },
};
