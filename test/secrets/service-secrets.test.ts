import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { cursorSecretSource } from '../../src/pagination/cursor-secret.js';
import { obtainServiceSecret } from '../../src/secrets/service-secrets.js';
import { createTestDatabase, ALL_DIALECTS, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `service secrets on ${dialect}`, {}, () => {
    let database: TestDatabase;
    const others: DbHandle[] = [];
    before(async () => {
      database = await createTestDatabase(dialect);
      // Three more connections to the same data, as three instances would have.
      for (let i = 0; i < 3; i++) others.push(createDb(database.url, { poolMax: 2 }));
    });
    after(async () => {
      for (const other of others) await other.close();
      await database.drop();
    });

    it('obtainServiceSecret on an empty store > makes a random secret, stores it, and answers the same one later', async () => {
      const name = `test-${randomUUID()}`;
      const first = await obtainServiceSecret(database.db, name);
      assert.match(first, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(await obtainServiceSecret(database.db, name), first);
      const row = await database.db.selectFrom('serviceSecrets').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
      assert.equal(row.value, first);
    });

    it('obtainServiceSecret from several instances at once > every one answers the one secret stored', async () => {
      const name = `test-${randomUUID()}`;
      const answers = await Promise.all(
        [database, ...others].flatMap((handle) => [obtainServiceSecret(handle.db, name), obtainServiceSecret(handle.db, name)]),
      );
      assert.equal(new Set(answers).size, 1, answers.join(' '));
      const rows = await database.db.selectFrom('serviceSecrets').selectAll().where('name', '=', name).execute();
      assert.deepEqual(
        rows.map((row) => row.value),
        [answers[0]],
      );
    });

    it('cursorSecretSource with CURSOR_SECRET set > answers it and stores nothing', async () => {
      const before = await database.db.selectFrom('serviceSecrets').select('name').execute();
      const configured = 'c'.repeat(40);
      assert.equal(await cursorSecretSource(database.db, configured)(), configured);
      assert.deepEqual(await database.db.selectFrom('serviceSecrets').select('name').execute(), before);
    });

    it('cursorSecretSource unset, in two instances > both answer the secret kept in the database', async () => {
      const a = await cursorSecretSource(database.db, undefined)();
      const b = await cursorSecretSource(others[0]!.db, undefined)();
      assert.equal(a, b);
      assert.equal(a, await obtainServiceSecret(database.db, 'cursor'));
    });
  });
}
