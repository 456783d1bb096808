import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../../src/keys/api-key-token.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('request log lines', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: '4', CORS_ORIGINS: 'https://shop.example' }, now: Date.parse('2027-01-01T00:00:00Z') });
  });
  after(() => t.close());

  const requestLine = (requestId: string) => {
    const lines = t.logs.filter((line) => line.msg === 'request' && line.requestId === requestId);
    assert.equal(lines.length, 1, `one request line for ${requestId}`);
    return lines[0]!;
  };

  it('an authenticated request > logs its request id, the key id and prefix', async () => {
    const key = t.auth.authorization.slice('Bearer '.length);
    const row = await t.database.db.selectFrom('apiKeys').select(['id', 'prefix']).where('secretHash', '=', hashApiKey(key)).executeTakeFirstOrThrow();
    const response = await t.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...t.auth, 'x-request-id': 'trace-me-1' } });
    assert.equal(response.statusCode, 200);
    const line = requestLine('trace-me-1');
    assert.equal(line.keyId, row.id);
    assert.equal(line.keyPrefix, row.prefix);
    assert.equal(line.statusCode, 200);
  });

  it('every kind of request > logs neither a key, nor its hash, nor the Authorization header', async () => {
    const key = t.auth.authorization.slice('Bearer '.length);
    const unknownKey = `ask_${randomBytes(32).toString('base64url')}`;
    const secrets = [key, hashApiKey(key), unknownKey, hashApiKey(unknownKey), 'not-a-key-but-secret', 'Bearer'];
    const requests = [
      { method: 'POST' as const, url: '/v1/pets', headers: t.auth, payload: { name: 'Rex', categoryId: 1 } },
      { method: 'POST' as const, url: '/v1/pets', headers: t.auth, payload: { name: '' } },
      { method: 'GET' as const, url: '/v1/pets/999999', headers: t.auth },
      { method: 'GET' as const, url: '/v1/pets', headers: { authorization: `Bearer ${unknownKey}` } },
      { method: 'GET' as const, url: '/v1/pets', headers: { authorization: 'Bearer not-a-key-but-secret' } },
      { method: 'GET' as const, url: '/v1/animals', headers: t.auth },
      { method: 'OPTIONS' as const, url: '/v1/pets', headers: { ...t.auth, origin: 'https://shop.example', 'access-control-request-method': 'GET' } },
      // Over the limit of 4 (the first test used one): 429s.
      { method: 'GET' as const, url: '/v1/pets', headers: t.auth },
      { method: 'GET' as const, url: '/v1/pets', headers: t.auth },
    ];
    const statuses: number[] = [];
    for (const request of requests) statuses.push((await t.app.inject(request)).statusCode);
    assert.deepEqual(statuses, [201, 400, 404, 401, 401, 404, 204, 429, 429]);
    assert.ok(t.logs.filter((line) => line.msg === 'request').length >= requests.length + 1);
    for (const line of t.logs) {
      const text = JSON.stringify(line);
      for (const secret of secrets) assert.ok(!text.includes(secret), `a log line holds ${secret.slice(0, 8)}…: ${text}`);
      assert.doesNotMatch(text, /authorization/i);
    }
  });
});
