import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateApiKey } from '../../src/keys/api-key-token.js';
import { redactSecrets } from '../../src/secrets/log-redaction.js';

describe('redactSecrets', () => {
  const { key, prefix } = generateApiKey();

  it('a key in a query string or a path > keeps only its display prefix', () => {
    assert.equal(redactSecrets(`/v1/pets?key=${key}&limit=2`), `/v1/pets?key=${prefix}[redacted]&limit=2`);
    assert.equal(redactSecrets(`/v1/pets/${key}`), `/v1/pets/${prefix}[redacted]`);
  });

  it('a key with its underscore percent-encoded, or cut short, or run on > is hidden too', () => {
    for (const text of [key.replace('_', '%5F'), key.replace('_', '%5f'), key.slice(0, 20), `${key}${key.slice(4)}`]) {
      const redacted = redactSecrets(`/v1/x/${text}`);
      assert.ok(!redacted.includes(key.slice(12, 20)), redacted);
      assert.match(redacted, /\[redacted\]$/);
    }
  });

  it('a key with any character percent-encoded, encoded twice, or in capitals > is hidden, and the text logged decoded', () => {
    const hex = (char: string) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    const secret = key.slice(12);
    for (const text of [
      `${hex('a')}${key.slice(1)}`,
      `${hex('a').toUpperCase()}${key.slice(1)}`,
      `ask_${hex(key[4]!)}${key.slice(5)}`,
      key.slice(0, 20) + hex(key[20]!) + key.slice(21),
      `%25${hex('a').slice(1)}${key.slice(1)}`,
      `%2525${hex('a').slice(1)}${key.slice(1)}`,
      `ASK_${key.slice(4)}`,
    ]) {
      const redacted = redactSecrets(`/v1/pets?limit=${text}&name=a`);
      assert.ok(!redacted.includes(secret.slice(0, 8)), redacted);
      assert.equal(redacted, `/v1/pets?limit=${prefix}[redacted]&name=a`);
    }
  });

  it('a key after a + (a space in a form) > is hidden; the + stays as written', () => {
    assert.equal(redactSecrets(`/v1/pets?name=x+${key}+y`), `/v1/pets?name=x+${prefix}[redacted]+y`);
    assert.equal(redactSecrets(`/v1/pets?name=x+${key.replace('a', '%61')}`).includes(key.slice(12, 20)), false);
  });

  it('text encoded deeper than it is worth decoding > is hidden whole', () => {
    let text = key;
    for (let i = 0; i < 6; i++) text = text.replace(/[a%]/, (char) => `%${char.charCodeAt(0).toString(16)}`);
    assert.equal(redactSecrets(`/v1/pets?q=${text}`), '[redacted]');
  });

  it('malformed escapes, and escapes of non-ASCII text, without a key > are left as they are', () => {
    for (const text of ['/v1/pets?name=%FF%zz%', '/v1/pets?name=%C3%91and%C3%BA+2', '/v1/pets?name=task+ask']) assert.equal(redactSecrets(text), text);
  });

  it('a display prefix alone, and text without keys > are left as they are', () => {
    assert.equal(redactSecrets(prefix), prefix);
    assert.equal(redactSecrets('/v1/pets?status=available&task_x=1'), '/v1/pets?status=available&task_x=1');
  });
});
