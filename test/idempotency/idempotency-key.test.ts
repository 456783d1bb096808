import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprintOf } from '../../src/idempotency/fingerprint.js';
import { parseIdempotencyKey } from '../../src/idempotency/idempotency-key.js';
import { isKeptStatus } from '../../src/idempotency/idempotency.service.js';

describe('parseIdempotencyKey', () => {
  for (const [value, key] of [
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['"with space"', 'with space'],
    ['"quote \\" and backslash \\\\"', 'quote " and backslash \\'],
    [`"${'a'.repeat(255)}"`, 'a'.repeat(255)],
  ] as const) {
    it(`parseIdempotencyKey > ${value.slice(0, 40)} > is the key ${key.slice(0, 40)}`, () => {
      assert.deepEqual(parseIdempotencyKey(value), { key });
    });
  }
  for (const value of ['', '""', 'a'.repeat(256), `"${'a'.repeat(256)}"`, 'two words', '"a", "b"', '"abc', '"a\\nb"', '"é"', 'é', '"a"b"']) {
    it(`parseIdempotencyKey > ${JSON.stringify(value.slice(0, 20))} > is refused with a reason`, () => {
      const parsed = parseIdempotencyKey(value);
      assert.ok('problem' in parsed, JSON.stringify(parsed));
      assert.match(parsed.problem, /Idempotency-Key/);
    });
  }
});

describe('fingerprintOf', () => {
  const base = { method: 'POST', route: '/v1/pets', params: {}, body: { name: 'Rex', categoryId: 1 } };
  it('fingerprintOf > the same request > is the same fingerprint', () => {
    assert.equal(fingerprintOf(base), fingerprintOf({ ...base, body: { name: 'Rex', categoryId: 1 } }));
  });
  for (const [what, other] of [
    ['another method', { ...base, method: 'PATCH' }],
    ['another route', { ...base, route: '/v1/store/orders' }],
    ['another path parameter', { ...base, params: { petId: 2 } }],
    ['another body', { ...base, body: { name: 'Rex', categoryId: 2 } }],
    ['no body', { ...base, body: undefined }],
  ] as const) {
    it(`fingerprintOf > ${what} > is another fingerprint`, () => {
      assert.notEqual(fingerprintOf(base), fingerprintOf(other));
    });
  }
});

describe('isKeptStatus', () => {
  it('isKeptStatus > answers that report the state > are kept; those that changed nothing are not', () => {
    assert.deepEqual(
      [200, 201, 204, 404, 409, 412].map(isKeptStatus),
      [true, true, true, true, true, true],
    );
    assert.deepEqual(
      [400, 401, 403, 408, 413, 415, 422, 429, 500, 503].map(isKeptStatus),
      [false, false, false, false, false, false, false, false, false, false],
    );
  });
});
