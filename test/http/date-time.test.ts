import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDateTime } from '../../src/http/date-time.js';

describe('isDateTime', () => {
  it('RFC 3339 date-times > with Z or an offset, with or without fractions, on 29 February of a leap year > accepted', () => {
    for (const text of ['2026-11-28T09:30:00Z', '2026-11-28T09:30:00.123Z', '2026-11-28t09:30:00z', '2026-11-28T09:30:00+05:30', '2028-02-29T00:00:00Z'])
      assert.equal(isDateTime(text), true, text);
  });

  it('dates JavaScript would roll over, other formats and out-of-range fields > refused', () => {
    for (const text of [
      '2026-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00',
      '2026-01-01 00:00:00Z',
      '2026-01-01',
      'tomorrow',
      '',
    ])
      assert.equal(isDateTime(text), false, text);
  });
});
