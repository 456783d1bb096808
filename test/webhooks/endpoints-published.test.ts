/** The limits of the webhook endpoints as docs/api.md quotes them, checked against the constants that drive them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DESCRIPTION_MAX_LENGTH } from '../../src/webhooks/webhook-endpoints.schemas.js';
import { WEBHOOK_ENDPOINTS_MAX } from '../../src/webhooks/webhook-endpoints.limits.js';
import { PREVIOUS_SECRET_GRACE_MS, WEBHOOK_SECRET_BYTES } from '../../src/webhooks/webhook-secret.js';
import { LOOKUP_TIMEOUT_MS, WEBHOOK_URL_MAX_LENGTH } from '../../src/webhooks/webhook-url-policy.js';
import { quotesOf } from '../helpers/published-docs.js';

/** Every quote `pattern` finds answers `expected` (its captures, joined by a space); at least one exists. */
function assertQuoted(pattern: RegExp, expected: string | number) {
  const quotes = quotesOf(pattern);
  assert.ok(quotes.length > 0, `the documentation quotes ${pattern}`);
  for (const { path, match } of quotes) assert.equal(match.slice(1).join(' '), String(expected), `${path}: "${match[0]}"`);
}

describe('published facts > webhook endpoints', () => {
  it('the cap, the lengths, the secret, its rotation and the lookup bound > are the constants the service applies', () => {
    assertQuoted(/\*\*At most (\d+) endpoints\*\* per store/, WEBHOOK_ENDPOINTS_MAX);
    assertQuoted(/With `limit=(\d+)` one page lists them all/, WEBHOOK_ENDPOINTS_MAX);
    assertQuoted(/The store has (\d+) webhook endpoints, the most it may have/, WEBHOOK_ENDPOINTS_MAX);
    assertQuoted(/`url` at most ([\d,]+) characters/, WEBHOOK_URL_MAX_LENGTH.toLocaleString('en-US'));
    assertQuoted(/`description` 1 to (\d+) characters/, DESCRIPTION_MAX_LENGTH);
    assertQuoted(/the base64 of (\d+) random bytes/, WEBHOOK_SECRET_BYTES);
    assertQuoted(/beside the new one, for (\d+) hours/, PREVIOUS_SECRET_GRACE_MS / 3_600_000);
    assertQuoted(/or takes more than (\d+) seconds is accepted/, LOOKUP_TIMEOUT_MS / 1000);
  });
});
