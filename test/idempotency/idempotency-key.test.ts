import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprintOf } from '../../src/idempotency/fingerprint.js';
import { parseIdempotencyKey } from '../../src/idempotency/idempotency-key.js';
import { IDEMPOTENT_OPERATION_NOTE, RELEASED_STATUSES_SHOWN, statusList } from '../../src/idempotency/idempotency.docs.js';
import { isKeptStatus, KEPT_ERROR_STATUSES } from '../../src/idempotency/idempotency.service.js';
import { allPublishedDocs } from '../helpers/published-docs.js';

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
    assert.deepEqual([200, 201, 204, 404, 409].map(isKeptStatus), [true, true, true, true, true]);
    // A 412 is not kept: the client's recovery (read again, retry with the new ETag) keeps its key.
    assert.deepEqual([400, 401, 403, 408, 412, 413, 415, 422, 429, 500, 503].map(isKeptStatus), [
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('which answers are kept, as published', () => {
  it('the operation note and the published docs > name the kept and released statuses that isKeptStatus decides', () => {
    for (const status of RELEASED_STATUSES_SHOWN) assert.equal(isKeptStatus(status), false, String(status));
    assert.match(IDEMPOTENT_OPERATION_NOTE, new RegExp(`the answers ${statusList(KEPT_ERROR_STATUSES)} are kept`));
    const readme = allPublishedDocs().replace(/\s+/g, ' ');
    assert.ok(readme.includes(`Kept and replayed: every 2xx, and ${statusList(KEPT_ERROR_STATUSES)},`), 'docs "Which answers are kept"');
    assert.ok(readme.includes('401, 403, 412, 413, 415, 429 and every 5xx'), 'the docs name 412 among the answers not kept');
  });
});
