/** The OpenAPI prose of the API keys, kept apart so the routes read at a glance. */

/** What no key may do with this API, whatever it holds. */
const NO_ESCALATION =
  "**A key hands out no more than it holds.** A key creates no key with a scope it lacks itself, nor one that outlives it (a key that expires makes only keys that expire no later), and revokes no key holding a scope it lacks: those answer 403 `insufficient_scope` (naming the scopes in `WWW-Authenticate`) or 400. The operator's CLI (`animal-store keys create | list | revoke`) has no such limits.";

export const KEYS_TAG = {
  name: 'keys',
  description: `The store's API keys. **Beta.** A key needs \`keys:manage\` to list, create and revoke keys; any valid key may read itself (\`getCurrentApiKey\`). The store keeps the SHA-256 of each key and its first 12 characters (\`prefix\`), never the key itself, which only its creation answers.

${NO_ESCALATION}`,
};

export const CREATE_DESCRIPTION = `Makes an API key with \`name\`, \`scopes\` (at least one) and, optionally, \`expiresAt\`, and answers it with the key itself. **The key is shown only in this answer**: store it now. It works on every instance at once (within about a second).

**Retried with the same \`Idempotency-Key\`**, it makes no second key and answers 409 \`api_key_already_issued\`, naming the key the first request made: that key is not shown again. The idempotency record keeps the key's SHA-256 only, not the key.

${NO_ESCALATION}`;

export const LIST_DESCRIPTION =
  'Returns at most `limit` API keys in ascending id order, revoked and expired ones included, without the keys themselves. When more follow, the answer carries `Link: </v1/api-keys?…&cursor=…>; rel="next"`.';

export const REVOKE_DESCRIPTION = `Revokes an API key: from this answer on, this instance refuses it, and so does every instance subscribed to the fleet's Redis (REDIS_URL); any other instance refuses it within KEY_CACHE_TTL_MS. A revoked key stays listed with its \`revokedAt\`. Revoking a key already revoked answers 204 again and keeps the first \`revokedAt\`. A key may revoke itself.

${NO_ESCALATION}`;

export const CURRENT_DESCRIPTION =
  'Answers the API key that made this request: its id, name, prefix, scopes and expiry. A client (the console, a script) learns from it what it may do before trying.';
