/**
 * Refusals are uniform by construction (request-pipeline.ts): once a request has presented a
 * valid key to an operation, whatever phase refuses it afterwards (scope, body, validation,
 * idempotency, the handler), the refusal counts against the key's quota, carries RateLimit and
 * RateLimit-Policy, and is the one Error shape. One table row per kind of refusal; the 5xx, 404,
 * 412 and the query's percent-encoding are in test/http/quota-every-answer.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES } from '../../src/errors.js';
import { issueApiKey } from '../../src/keys/keys.service.js';
import type { Scope } from '../../src/keys/scopes.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const WINDOW_START = Date.parse('2027-01-01T00:00:00Z');
const LIMIT = 50;
const POLICY = `"per-key";q=${LIMIT};w=60`;

type Headers = Record<string, string>;
interface Refusal {
  status: number;
  code: string;
  scopes?: Scope[];
  /** Sends the refused request with the fresh key's headers; may make rows first with `t.auth`. */
  send(t: TestApp, key: Headers): Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>;
}

const json = { 'content-type': 'application/json' };

const REFUSALS: Record<string, Refusal> = {
  'insufficient_scope (403)': {
    status: 403,
    code: 'insufficient_scope',
    scopes: ['pets:read'],
    send: (t, key) => t.app.inject({ method: 'POST', url: '/v1/pets', headers: key, payload: { name: 'Nope', categoryId: 1 } }),
  },
  'malformed_json (400)': {
    status: 400,
    code: 'malformed_json',
    send: (t, key) => t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...key, ...json }, payload: '{"name":' }),
  },
  'unsupported_media_type (415)': {
    status: 415,
    code: 'unsupported_media_type',
    send: (t, key) => t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...key, 'content-type': 'text/plain' }, payload: 'Rex' }),
  },
  'payload_too_large (413)': {
    status: 413,
    code: 'payload_too_large',
    send: (t, key) =>
      t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...key, ...json }, payload: JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }) }),
  },
  'validation_failed (400)': {
    status: 400,
    code: 'validation_failed',
    send: (t, key) => t.app.inject({ method: 'GET', url: '/v1/pets?limit=0', headers: key }),
  },
  'invalid_cursor (400)': {
    status: 400,
    code: 'invalid_cursor',
    send: (t, key) => t.app.inject({ method: 'GET', url: '/v1/pets?cursor=not-a-cursor', headers: key }),
  },
  'invalid_idempotency_key (400)': {
    status: 400,
    code: 'invalid_idempotency_key',
    send: (t, key) =>
      t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...key, 'idempotency-key': '"unterminated' }, payload: { name: 'Rex', categoryId: 1 } }),
  },
  'idempotency_key_reused (422)': {
    status: 422,
    code: 'idempotency_key_reused',
    send: async (t, key) => {
      // The first use counts too; the check below is that the refusal after it counts and carries the fields.
      const first = await t.app.inject({
        method: 'POST',
        url: '/v1/pets',
        headers: { ...key, 'idempotency-key': 'reuse-1' },
        payload: { name: 'Once', categoryId: 1 },
      });
      assert.equal(first.statusCode, 201);
      return t.app.inject({ method: 'POST', url: '/v1/pets', headers: { ...key, 'idempotency-key': 'reuse-1' }, payload: { name: 'Other', categoryId: 1 } });
    },
  },
  'pet_not_available (409)': {
    status: 409,
    code: 'pet_not_available',
    send: async (t, key) => {
      const pet = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth, payload: { name: 'Held', categoryId: 1 } });
      const order = await t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: t.auth, payload: { petId: (pet.json() as { id: number }).id } });
      assert.equal(order.statusCode, 201);
      return t.app.inject({ method: 'POST', url: '/v1/store/orders', headers: key, payload: { petId: (pet.json() as { id: number }).id } });
    },
  },
  'order_not_found (404)': {
    status: 404,
    code: 'order_not_found',
    send: (t, key) => t.app.inject({ method: 'GET', url: '/v1/store/orders/987654', headers: key }),
  },
};

describe('refusals of a valid key, whatever phase makes them', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, now: WINDOW_START });
  });
  after(() => t.close());

  const freshKey = async (scopes?: Scope[]): Promise<Headers> => ({
    authorization: `Bearer ${(await issueApiKey(t.database.db, { name: `refused ${scopes?.join(' ') ?? 'all'}`, ...(scopes ? { scopes } : {}) }, () => t.clock.now)).key}`,
  });
  const remainingOf = (headers: Record<string, unknown>) => Number(/;r=(\d+);/.exec(String(headers['ratelimit']))?.[1]);

  for (const [kind, refusal] of Object.entries(REFUSALS)) {
    it(`${kind} > is the Error shape, carries RateLimit and RateLimit-Policy, and is counted`, async () => {
      const key = await freshKey(refusal.scopes);
      const refused = await refusal.send(t, key);
      assertErrorBody(refused, { status: refusal.status, code: refusal.code });
      assert.equal(refused.headers['ratelimit-policy'], POLICY);
      const remaining = remainingOf(refused.headers);
      assert.ok(Number.isInteger(remaining) && remaining < LIMIT, `RateLimit: ${String(refused.headers['ratelimit'])}`);
      const next = await t.app.inject({ method: 'GET', url: '/v1/pets?limit=1', headers: key });
      assert.equal(next.statusCode, 200);
      assert.equal(remainingOf(next.headers), remaining - 1, 'the refusal was counted: the next request sees one less');
    });
  }

  it("the metrics tell rate-limit refusals by their status and code > 429 is rate_limited's and too_many_streams' only", () => {
    // A new 429 code must be told apart in metrics/request-metrics.ts, as too_many_streams is.
    const with429 = Object.entries(ERROR_CODES)
      .filter(([, { status }]) => status === 429)
      .map(([code]) => code);
    assert.deepEqual(with429.sort(), ['rate_limited', 'too_many_streams']);
  });
});
