import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSqliteBusy, retryWhileBusy } from '../../src/db/sqlite-lock-wait.js';

const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

describe('retryWhileBusy', () => {
  it('when the lock stays held > tries again until the deadline, then throws the SQLITE_BUSY error', async () => {
    const clock = { now: 0 };
    let attempts = 0;
    const error = busy();
    await assert.rejects(
      retryWhileBusy(async () => {
        attempts++;
        clock.now += 10;
        throw error;
      }, 100, () => clock.now),
      (thrown) => thrown === error,
    );
    assert.equal(attempts, 10);
  });

  it('when the lock frees before the deadline > answers the result of the first attempt that gets it', async () => {
    let attempts = 0;
    const result = await retryWhileBusy(async () => {
      if (++attempts < 3) throw busy('SQLITE_BUSY_SNAPSHOT');
      return 'done';
    }, Number.POSITIVE_INFINITY);
    assert.deepEqual({ result, attempts }, { result: 'done', attempts: 3 });
  });

  it('when the attempt fails for another reason > throws at once without trying again', async () => {
    let attempts = 0;
    await assert.rejects(
      retryWhileBusy(async () => {
        attempts++;
        throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
      }, Number.POSITIVE_INFINITY),
      /constraint/,
    );
    assert.equal(attempts, 1);
  });
});

describe('isSqliteBusy', () => {
  it('when the code is SQLITE_BUSY or an extended form of it > says yes, and no otherwise', () => {
    assert.deepEqual(
      ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'ECONNRESET', undefined].map((code) => isSqliteBusy({ code })),
      [true, true, false, false, false],
    );
    assert.equal(isSqliteBusy(null), false);
  });
});
