import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateApiKey, redactApiKeys } from '../../src/keys/api-key-token.js';

describe('redactApiKeys', () => {
  const { key, prefix } = generateApiKey();

  it('a key in a query string or a path > keeps only its display prefix', () => {
    assert.equal(redactApiKeys(`/v1/pets?key=${key}&limit=2`), `/v1/pets?key=${prefix}[redacted]&limit=2`);
    assert.equal(redactApiKeys(`/v1/pets/${key}`), `/v1/pets/${prefix}[redacted]`);
  });

  it('a key with its underscore percent-encoded, or cut short, or run on > is hidden too', () => {
    for (const text of [key.replace('_', '%5F'), key.replace('_', '%5f'), key.slice(0, 20), `${key}${key.slice(4)}`]) {
      const redacted = redactApiKeys(`/v1/x/${text}`);
      assert.ok(!redacted.includes(key.slice(12, 20)), redacted);
      assert.match(redacted, /\[redacted\]$/);
    }
  });

  it('a display prefix alone, and text without keys > are left as they are', () => {
    assert.equal(redactApiKeys(prefix), prefix);
    assert.equal(redactApiKeys('/v1/pets?status=available&task_x=1'), '/v1/pets?status=available&task_x=1');
  });
});
