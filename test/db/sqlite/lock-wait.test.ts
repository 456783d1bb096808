import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSqliteBusy, retryWhileBusy } from '../../../src/db/sqlite/lock-wait.js';
import { createTestDatabase } from '../../helpers/test-db.js';

const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

describe('retryWhileBusy', () => {
  it('when the lock stays held > tries again until the deadline, then throws the SQLITE_BUSY error', async () => {
    const clock = { now: 0 };
    let attempts = 0;
    const error = busy();
    await assert.rejects(
      retryWhileBusy(
        async () => {
          attempts++;
          clock.now += 10;
          throw error;
        },
        100,
        () => clock.now,
      ),
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

describe('LockWaitingDialect transactions (SQLite file)', () => {
  it(
    'two transactions one after the other on one reserved connection (as migrations run) > both commit, the second does not wait for the first forever',
    { timeout: 30_000 },
    async () => {
      const database = await createTestDatabase('sqlite');
      try {
        await database.db.connection().execute(async (db) => {
          for (const name of ['first', 'second']) {
            await db
              .transaction()
              .execute((trx) => trx.insertInto('pets').values({ name, nameKey: name, categoryId: 1, status: 'available', createdAt: 0 }).execute());
          }
        });
        const names = (await database.db.selectFrom('pets').select('name').orderBy('id').execute()).map((row) => row.name);
        assert.deepEqual(names, ['first', 'second']);
        // The connection is free again for everyone else.
        await database.db.transaction().execute((trx) => trx.deleteFrom('pets').execute());
      } finally {
        await database.drop();
      }
    },
  );
});
