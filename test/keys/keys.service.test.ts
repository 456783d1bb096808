import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createKeyVerifier, issueApiKey, listKeys, parseDuration, revokeKey } from '../../src/keys/keys.service.js';
import { type Scope, SCOPES } from '../../src/keys/scopes.js';
import { countQueries } from '../helpers/query-counter.js';
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
      assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes']);
    });

    it('issueApiKey without scopes > grants every scope', async () => {
      const issued = await issueApiKey(database.db, { name: 'everything' });
      assert.deepEqual(issued.scopes, ['pets:read', 'pets:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write', 'keys:manage']);
      const row = await database.db.selectFrom('apiKeys').select('scopes').where('id', '=', issued.id).executeTakeFirstOrThrow();
      assert.equal(row.scopes, 'pets:read pets:write orders:read orders:write webhooks:read webhooks:write keys:manage');
    });

    it('issueApiKey with scopes > stores each once, in the order of the list, and the verifier answers them', async () => {
      const issued = await issueApiKey(database.db, { name: 'reader', scopes: ['orders:read', 'pets:read', 'orders:read'] });
      assert.deepEqual(issued.scopes, ['pets:read', 'orders:read']);
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 0 });
      assert.deepEqual((await verifier.verify(issued.key)).key?.scopes, ['pets:read', 'orders:read']);
    });

    it('issueApiKey with an unknown scope or none > refuses, and stores nothing', async () => {
      const before = (await listKeys(database.db)).length;
      await assert.rejects(issueApiKey(database.db, { name: 'bad', scopes: ['pets:delete' as Scope] }), /Unknown scope pets:delete/);
      await assert.rejects(issueApiKey(database.db, { name: 'none', scopes: [] }), /at least one scope/);
      assert.equal((await listKeys(database.db)).length, before);
    });

    it('revokeKey of an unknown id > answers undefined', async () => {
      assert.equal(await revokeKey(database.db, 999_999), undefined);
    });

    it('a verifier with a cache > keeps accepting a revoked key for at most the cache TTL', async () => {
      let now = 1_000_000;
      const issued = await issueApiKey(database.db, { name: 'cached' }, () => now);
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 5000, now: () => now });
      assert.ok((await verifier.verify(issued.key)).key);
      await revokeKey(database.db, issued.id, () => now);
      now += 4999;
      assert.ok((await verifier.verify(issued.key)).key, 'still cached');
      now += 1;
      assert.deepEqual(await verifier.verify(issued.key), { key: undefined, failure: 'not_usable' });
    });

    it('a verifier > accepts a key made after it read the prefixes, on its first use', async () => {
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 5000 });
      assert.deepEqual(await verifier.verify('ask_' + 'A'.repeat(43)), { key: undefined, failure: 'unknown_key' });
      const issued = await issueApiKey(database.db, { name: 'fresh' });
      assert.deepEqual(await verifier.verify(issued.key), { key: { id: issued.id, prefix: issued.prefix, scopes: [...SCOPES] } });
    });

    it('a verifier > refuses a revoked key by its prefix alone once the prefixes are read again', async () => {
      const { db, counts } = countQueries(database.db);
      const verifier = createKeyVerifier(db, { cacheTtlMs: 0, usableKeysRefreshMs: 10 });
      const issued = await issueApiKey(database.db, { name: 'leaked' });
      assert.ok((await verifier.verify(issued.key)).key);
      await revokeKey(database.db, issued.id);
      // Its prefix is still in the set, so it is looked up and found revoked.
      assert.deepEqual(await verifier.verify(issued.key), { key: undefined, failure: 'not_usable' });
      // An unknown prefix makes the set be read again, without the revoked key.
      assert.equal((await verifier.verify('ask_' + 'B'.repeat(43))).key, undefined);
      const lookups = counts.keyLookups;
      assert.deepEqual(await verifier.verify(issued.key), { key: undefined, failure: 'unknown_key' });
      assert.equal(counts.keyLookups, lookups);
    });

    it("a verifier > refuses a token that copies a usable key's prefix with another secret, without a lookup of its own", async () => {
      const { db, counts } = countQueries(database.db);
      const verifier = createKeyVerifier(db, { cacheTtlMs: 5000 });
      const issued = await issueApiKey(database.db, { name: 'known prefix' });
      assert.ok((await verifier.verify(issued.key)).key);
      const lookups = counts.keyLookups;
      // The display prefix is public (logs, keys list): a prober keeps it and guesses the rest.
      const forged =
        issued.key.slice(0, issued.prefix.length) +
        randomBytes(32)
          .toString('base64url')
          .slice(0, issued.key.length - issued.prefix.length);
      assert.equal(forged.length, issued.key.length);
      assert.deepEqual(await verifier.verify(forged), { key: undefined, failure: 'unknown_key' });
      assert.equal(counts.keyLookups, lookups);
    });

    it('a verifier > refuses a cached key once it expires', async () => {
      let now = 5_000_000;
      const issued = await issueApiKey(database.db, { name: 'expiring', expiresInMs: 1000 }, () => now);
      const verifier = createKeyVerifier(database.db, { cacheTtlMs: 60_000, now: () => now });
      assert.ok((await verifier.verify(issued.key)).key);
      now += 1000;
      assert.deepEqual(await verifier.verify(issued.key), { key: undefined, failure: 'not_usable' });
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
      const { db, counts } = countQueries(database.db);
      const verifier = createKeyVerifier(db, { cacheTtlMs: 5000 });
      const results = await Promise.all(Array.from({ length: 20 }, () => verifier.verify(issued.key)));
      assert.ok(results.every((r) => r.key?.id === issued.id));
      assert.equal(counts.keyLookups, 1);
      assert.equal(counts.usableKeyReads, 1);
    } finally {
      await database.drop();
    }
  });

  it('many concurrent random well-formed tokens > cost no key lookup and share the reads of the prefixes', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      await issueApiKey(database.db, { name: 'real' });
      const { db, counts } = countQueries(database.db);
      const verifier = createKeyVerifier(db, { cacheTtlMs: 5000 });
      const results = await Promise.all(Array.from({ length: 500 }, () => verifier.verify(`ask_${randomBytes(32).toString('base64url')}`)));
      assert.ok(results.every((r) => !r.key && r.failure === 'unknown_key'));
      assert.equal(counts.keyLookups, 0);
      // One read at first use, then at most one more for the tokens that asked while it ran.
      assert.ok(counts.usableKeyReads <= 2, `${counts.usableKeyReads} reads`);
    } finally {
      await database.drop();
    }
  });
});
