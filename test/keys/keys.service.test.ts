import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createKeyVerifier, issueApiKey, listKeys, parseDuration, revokeKey } from '../../src/keys/keys.service.js';
import { ALL_DIALECTS, createTestDatabase, describeOnDialect, type TestDatabase } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  describeOnDialect(dialect, `keys service on ${dialect}`, {}, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database.drop());

    it('issueApiKey > stores only the SHA-256 and a short prefix, never the key', async () => {
      const issued = await issueApiKey(database.db, { name: 'ci' });
      assert.match(issued.key, /^ask_[A-Za-z0-9_-]{43}$/);
      assert.equal(issued.prefix, issued.key.slice(0, 12));
      const row = await database.db.selectFrom('apiKeys').selectAll().where('id', '=', issued.id).executeTakeFirstOrThrow();
      assert.equal(row.secretHash, createHash('sha256').update(issued.key).digest('hex'));
      assert.ok(!Object.values(row).some((value) => String(value).includes(issued.key)));
    });

    it('issueApiKey twice > makes different keys', async () => {
      const a = await issueApiKey(database.db, { name: 'a' });
      const b = await issueApiKey(database.db, { name: 'b' });
      assert.notEqual(a.key, b.key);
      assert.notEqual(a.prefix, b.prefix);
    });

    it('listKeys > shows no secret', async () => {
      const issued = await issueApiKey(database.db, { name: 'listed' });
      const listed = (await listKeys(database.db)).find((k) => k.id === issued.id)!;
      assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'expiresAt', 'id', 'name', 'prefix', 'revokedAt']);
    });

    it('revokeKey of an unknown id > answers undefined', async () => {
      assert.equal(await revokeKey(database.db, 999_999), undefined);
    });

    it('a verifier with a cache > keeps accepting a revoked key for at most the cache TTL', async () => {
      let now = 1_000_000;
      const issued = await issueApiKey(database.db, { name: 'cached' }, () => now);
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 5000, now: () => now });
      assert.ok(await verifier.verify(issued.key));
      await revokeKey(database.db, issued.id, () => now);
      now += 4999;
      assert.ok(await verifier.verify(issued.key), 'still cached');
      now += 1;
      assert.equal(await verifier.verify(issued.key), undefined);
    });

    it('a verifier > accepts a key made after an unknown-key lookup at once', async () => {
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 5000 });
      assert.equal(await verifier.verify('ask_' + 'A'.repeat(43)), undefined);
      const issued = await issueApiKey(database.db, { name: 'fresh' });
      assert.deepEqual(await verifier.verify(issued.key), { id: issued.id, prefix: issued.prefix });
    });

    it('a verifier > refuses a cached key once it expires', async () => {
      let now = 5_000_000;
      const issued = await issueApiKey(database.db, { name: 'expiring', expiresInMs: 1000 }, () => now);
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 60_000, now: () => now });
      assert.ok(await verifier.verify(issued.key));
      now += 1000;
      assert.equal(await verifier.verify(issued.key), undefined);
    });
  });
}

describe('parseDuration', () => {
  it('known units > answer milliseconds', () => {
    assert.equal(parseDuration('90s'), 90_000);
    assert.equal(parseDuration('15m'), 900_000);
    assert.equal(parseDuration('12h'), 43_200_000);
    assert.equal(parseDuration('30d'), 2_592_000_000);
  });
  it('anything else > answers undefined', () => {
    for (const text of ['', '30', 'd', '0d', '1.5d', '-1d', '1w', '30 days']) assert.equal(parseDuration(text), undefined, text);
  });
});

describe('createKeyVerifier', () => {
  it('many concurrent verifications of one uncached key > share a single database lookup', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const issued = await issueApiKey(database.db, { name: 'popular' });
      let lookups = 0;
      const counting = database.db.withPlugin({
        transformQuery: (args) => {
          if (args.node.kind === 'SelectQueryNode') lookups += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      const verifier = createKeyVerifier(counting, { cacheTtlMs: 5000 });
      const results = await Promise.all(Array.from({ length: 20 }, () => verifier.verify(issued.key)));
      assert.ok(results.every((r) => r?.id === issued.id));
      assert.equal(lookups, 1);
    } finally {
      await database.drop();
    }
  });
});
