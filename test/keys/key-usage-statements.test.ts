/**
 * Keys' last use is written in one statement text whatever the number of keys in a flush: one
 * text per number of keys took up to 500 of the process's bound of prepared statements
 * (db/postgres/prepared-statements.ts).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { insertApiKey, listApiKeys, recordKeysLastUsed } from '../../src/keys/keys.repository.js';
import { recordingTexts } from '../helpers/statement-texts.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `keys' last use statements on ${dialect}`, {}, () => {
    let t: TestDatabase;
    before(async () => {
      t = await createTestDatabase(dialect);
    });
    after(() => t?.drop());

    it('Attack: flushes of 1 to 12 keys send one statement text, and each key gets its own time, never an earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        ids.push(
          (
            await insertApiKey(t.db, {
              name: `k${i}`,
              prefix: `p${i}`,
              secretHash: `h${i}`,
              createdAt: 1,
              expiresAt: null,
              revokedAt: null,
              scopes: 'pets:read',
            })
          ).id,
        );
      }
      const writes = recordingTexts(t.db);
      for (let count = 1; count <= ids.length; count += 1) {
        await recordKeysLastUsed(writes.db, new Map(ids.slice(0, count).map((id, i) => [id, 1_000_000 + count * 100 + i])));
      }
      assert.equal(writes.texts.size, 1, [...writes.texts].join('\n'));
      // A late flush with older times moves nothing back.
      await recordKeysLastUsed(t.db, new Map(ids.map((id) => [id, 5])));
      const lastUsed = new Map((await listApiKeys(t.db)).map((key) => [key.id, key.lastUsedAt]));
      assert.deepEqual(
        ids.map((id) => lastUsed.get(id)),
        ids.map((_, i) => 1_000_000 + ids.length * 100 + i),
      );
    });
  });
}
