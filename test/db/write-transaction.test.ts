import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { writeTransaction } from '../../src/db/dialect.js';
import { isTransactionConflict, retryConflicts } from '../../src/db/retry-conflicts.js';
import { AppError } from '../../src/errors.js';
import { insertPet, lockPetById } from '../../src/pets/pets.repository.js';
import { createTestDatabase, ALL_DIALECTS, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

describe('retryConflicts', () => {
  const conflict = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

  it('a transaction aborted twice for a conflict > runs a third time and answers its result', async () => {
    let runs = 0;
    const result = await retryConflicts(async () => {
      runs++;
      if (runs < 3) throw conflict(runs === 1 ? '40001' : '40P01');
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal(runs, 3);
  });

  it('a transaction that always conflicts > runs the given number of times, then throws 503 service_unavailable', async () => {
    let runs = 0;
    await assert.rejects(
      retryConflicts(
        async () => {
          runs++;
          throw conflict('40001');
        },
        { attempts: 4 },
      ),
      (error: unknown) => error instanceof AppError && error.code === 'service_unavailable' && error.status === 503,
    );
    assert.equal(runs, 4);
  });

  it('any other failure > is thrown at once, not retried', async () => {
    let runs = 0;
    await assert.rejects(
      retryConflicts(async () => {
        runs++;
        throw conflict('23505');
      }),
      /conflict 23505/,
    );
    assert.equal(runs, 1);
  });

  it('isTransactionConflict > is true for serialization failures and deadlocks only', () => {
    assert.deepEqual(
      ['40001', '40P01', '23505', '57014', 'SQLITE_BUSY'].map((code) => isTransactionConflict({ code })),
      [true, true, false, false, false],
    );
    assert.equal(isTransactionConflict(null), false);
  });
});

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `writeTransaction on ${dialect}`, {}, () => {
    let database: TestDatabase;
    let other: DbHandle;
    before(async () => {
      database = await createTestDatabase(dialect);
      // A second connection, as another process would have; it gives up on a lock within a second
      // (its connect timeout too, so it is opened here, not under a busy machine's lock test).
      other = createDb(database.url, { poolMax: 1, statementTimeoutMs: 1000 });
      await sql`select 1`.execute(other.db);
    });
    after(async () => {
      await other.close();
      await database.drop();
    });

    const newPet = () => insertPet(database.db, { name: 'Locked', categoryId: 1, status: 'available', createdAt: Date.now() });

    it('a failure inside > rolls every write back, and the connection is usable after', async () => {
      await assert.rejects(
        writeTransaction(database.db, async (trx) => {
          await insertPet(trx, { name: 'Rolled back', categoryId: 1, status: 'available', createdAt: Date.now() });
          throw new Error('stop');
        }),
        /stop/,
      );
      assert.equal((await database.db.selectFrom('pets').selectAll().where('name', '=', 'Rolled back').execute()).length, 0);
      assert.ok((await newPet()).id > 0);
    });

    it('a pet locked inside > cannot be locked or written by another connection until the end', async () => {
      const pet = await newPet();
      let refused: unknown;
      await writeTransaction(database.db, async (trx) => {
        assert.equal((await lockPetById(trx, pet.id))?.id, pet.id);
        // Only read so far: the lock must already be held, not taken at the first write.
        if (dialect === 'postgres') {
          refused = await sql`select id from pets where id = ${pet.id} for update nowait`.execute(other.db).then(
            () => undefined,
            (error: unknown) => error,
          );
        } else {
          refused = await sql`begin immediate`.execute(other.db).then(
            async () => {
              await sql`rollback`.execute(other.db);
            },
            (error: unknown) => error,
          );
        }
      });
      assert.ok(refused, 'the other connection was refused the lock');
      assert.match(String((refused as { code?: string }).code), dialect === 'postgres' ? /^55P03$/ : /^SQLITE_BUSY/);
      // Once the transaction ended, the other connection gets it.
      await sql`update pets set name = 'Free' where id = ${pet.id}`.execute(other.db);
    });
  });
}
