/**
 * The hint of the hold warning (db/listing-holds.ts) is SQL an operator pastes into psql. A
 * prepared transaction's gid is chosen by whoever prepared it (any role that may connect), so it
 * must be quoted as a literal, or the pasted line runs what the gid says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdHint } from '../../src/db/listing-holds.js';

describe('holdHint', () => {
  it("a gid holding a quote > the ROLLBACK PREPARED of the hint quotes it as one literal (quotes doubled), so pasting it runs nothing else", () => {
    const gid = "x'; drop table pets; --";
    const hint = holdHint({ gid, pid: null });
    assert.match(hint, /ROLLBACK PREPARED 'x''; drop table pets; --'/);
  });

  it('a session > the hint names pg_terminate_backend of its pid', () => {
    assert.match(holdHint({ gid: null, pid: 4242 }), /select pg_terminate_backend\(4242\)/);
  });
});
