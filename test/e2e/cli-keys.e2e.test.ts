/**
 * End to end, the built command's key management: `keys create`, `keys list`, `--scope`,
 * `keys revoke` and `--expires-in`, as an operator types them and as a client then sees them.
 *
 * Real child processes (`dist/cli.js`, which `npm test` builds first), real HTTP on a real port,
 * a real database: no mocks, no inject(). The whole file runs once per dialect (a SQLite file in a
 * temporary folder; a fresh PostgreSQL schema when TEST_DATABASE_URL is set, else it shows as
 * skipped) with the same assertions, so every behaviour is shown to be the same on both.
 */
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { SCOPES } from '../../src/keys/scopes.js';
import { call, createKey, KEY_PATTERN, listKeysJson, servedSuite, unique, uniqueCategory } from '../helpers/cli-e2e.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { runCli, type RunningService, spawnService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';
import { waitUntil } from '../helpers/wait-for.js';

for (const dialect of ALL_DIALECTS) {
  // A safety net: a hung process or request fails the file instead of stalling `npm test`.
  describeOnDialect(dialect, `animal-store serve on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    // The server most tests talk to, on its own database, with a key made by the CLI.
    let databaseUrl: string;
    let server: RunningService;
    const newDatabaseUrl = servedSuite(dialect, (suite) => ({ databaseUrl, server } = suite));

    describe('when an operator creates a key with the CLI', () => {
      it('answers the plaintext key alone on the last stdout line, and the information on stderr', async () => {
        const name = unique('cli');
        const created = await runCli(['keys', 'create', '--name', name], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        const lines = created.stdout.trimEnd().split('\n');
        const plaintext = lines.at(-1) ?? '';
        assert.match(plaintext, KEY_PATTERN);
        assert.ok(created.stderr.includes(name), `stderr names the key: ${created.stderr}`);
        assert.ok(!created.stderr.includes(plaintext), 'stderr does not repeat the key');

        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key: plaintext });
        assert.equal(answer.status, 200, 'the new key works at once on a running server');
      });
    });

    describe('when an operator lists keys with the CLI', () => {
      it('answers each key with its prefix but never the plaintext key nor its stored hash', async () => {
        const name = unique('listed');
        const created = await runCli(['keys', 'create', '--name', name], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        const plaintext = created.stdout.trimEnd().split('\n').at(-1) ?? '';
        const sha256 = createHash('sha256').update(plaintext).digest('hex');
        const handle = createDb(databaseUrl);
        let stored: { prefix: string; secretHash: string };
        try {
          stored = await handle.db.selectFrom('apiKeys').select(['prefix', 'secretHash']).where('name', '=', name).executeTakeFirstOrThrow();
        } finally {
          await handle.close();
        }
        assert.ok(plaintext.startsWith(stored.prefix), 'the prefix is the start of the key');
        assert.ok(stored.prefix.length < plaintext.length);
        assert.notEqual(stored.secretHash, plaintext, 'the key is not stored in plain text');

        const listings = [
          ['keys', 'list'],
          ['keys', 'list', '--json'],
        ];
        const results = await Promise.all(listings.map((args) => runCli(args, { DATABASE_URL: databaseUrl })));
        for (const [i, args] of listings.entries()) {
          const listed = results[i]!;
          assert.equal(listed.code, 0, listed.stderr);
          const output = listed.stdout + listed.stderr;
          assert.ok(output.includes(stored.prefix), `${args.join(' ')} shows the prefix`);
          assert.ok(output.includes(name), `${args.join(' ')} shows the name`);
          assert.ok(!output.includes(plaintext), `${args.join(' ')} shows the plaintext key`);
          assert.ok(!output.includes(stored.secretHash), `${args.join(' ')} shows the stored hash`);
          assert.ok(!output.includes(sha256), `${args.join(' ')} shows the SHA-256 of the key`);
        }
      });
    });

    describe('when an operator limits a key with --scope', () => {
      it('answers a key that may read but gets 403 insufficient_scope with the RFC 6750 challenge when it writes', async () => {
        const name = unique('reader');
        const created = await runCli(['keys', 'create', '--name', name, '--scope', 'pets:read', '--scope', 'orders:read'], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        assert.match(created.stderr, /scopes: pets:read, orders:read\)/);
        const reader = created.stdout.trimEnd().split('\n').at(-1) ?? '';
        assert.match(reader, KEY_PATTERN);

        assert.equal((await call(server, 'GET', '/v1/pets?limit=1', { key: reader })).status, 200);
        const refused = await call(server, 'POST', '/v1/pets', { key: reader, body: { name: unique('Nope'), categoryId: uniqueCategory() } });
        const error = assertErrorBody(refused, { status: 403, code: 'insufficient_scope' });
        assert.equal(error.message, 'this key lacks the scope pets:write that POST /v1/pets needs; its scopes: pets:read, orders:read');
        assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="animal-store", error="insufficient_scope", scope="pets:write"');
      });

      it('answers, for a key made without --scope, that it has every scope', async () => {
        const created = await runCli(['keys', 'create', '--name', unique('all')], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        assert.match(
          created.stderr,
          /all scopes: pets:read, pets:write, orders:read, orders:write, webhooks:read, webhooks:write, keys:manage; limit a key with --scope/,
        );
      });

      it('answers exit code 2 naming the scopes for an unknown scope, and makes no key', async () => {
        const name = unique('typo');
        const result = await runCli(['keys', 'create', '--name', name, '--scope', 'pets:read', '--scope', 'pets:delete'], { DATABASE_URL: databaseUrl });
        assert.equal(result.code, 2);
        assert.match(
          result.stderr,
          /--scope "pets:delete" is no scope; the scopes are pets:read, pets:write, orders:read, orders:write, webhooks:read, webhooks:write, keys:manage/,
        );
        assert.equal(result.stdout, '');
        assert.ok(!(await listKeysJson(databaseUrl)).some((k) => k.name === name));
      });

      it('answers each key with its scopes in keys list and keys list --json', async () => {
        const name = unique('writer');
        const created = await runCli(['keys', 'create', '--name', name, '--scope', 'pets:write'], { DATABASE_URL: databaseUrl });
        assert.equal(created.code, 0, created.stderr);
        const listed = (await listKeysJson(databaseUrl)).find((k) => k.name === name);
        assert.deepEqual(listed?.scopes, ['pets:write']);

        const table = await runCli(['keys', 'list'], { DATABASE_URL: databaseUrl });
        assert.equal(table.code, 0, table.stderr);
        const [heading, ...rows] = table.stdout.trimEnd().split('\n');
        assert.deepEqual(heading!.split('\t'), ['ID', 'PREFIX', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED']);
        assert.equal(rows.find((row) => row.split('\t')[2] === name)?.split('\t')[3], 'pets:write');
        const allScopesId = (await listKeysJson(databaseUrl)).find((k) => k.scopes.length === SCOPES.length)?.id;
        const everything = rows.find((row) => row.split('\t')[0] === String(allScopesId));
        assert.equal(everything?.split('\t')[3], 'pets:read,pets:write,orders:read,orders:write,webhooks:read,webhooks:write,keys:manage');
      });
    });

    describe('when a key is revoked with the CLI', () => {
      // KEY_CACHE_TTL_MS=0 turns the verifier's cache off, so a revocation takes effect on the very
      // next request; with the default cache a revoked key keeps working for up to KEY_CACHE_TTL_MS.
      let revokeDatabaseUrl: string;
      let revokeServer: RunningService;

      before(async () => {
        revokeDatabaseUrl = await newDatabaseUrl();
        revokeServer = await spawnService({ databaseUrl: revokeDatabaseUrl, env: { KEY_CACHE_TTL_MS: '0' } });
      });
      after(async () => {
        await revokeServer?.stop();
      });

      it('answers 401 on the next request', async () => {
        const revoked = await createKey(revokeDatabaseUrl);
        const kept = await createKey(revokeDatabaseUrl);
        assert.equal((await call(revokeServer, 'GET', '/v1/pets', { key: revoked })).status, 200);

        const listed = (await listKeysJson(revokeDatabaseUrl)).find((k) => revoked.startsWith(k.prefix));
        assert.ok(listed, 'keys list --json finds the key by its prefix');
        const revoke = await runCli(['keys', 'revoke', String(listed.id)], { DATABASE_URL: revokeDatabaseUrl });
        assert.equal(revoke.code, 0, revoke.stderr);

        const answer = await call(revokeServer, 'GET', '/v1/pets', { key: revoked });
        assertErrorBody(answer, { status: 401, code: 'unauthorized' });
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        assert.equal((await call(revokeServer, 'GET', '/v1/pets', { key: kept })).status, 200, 'other keys keep working');

        const afterRevoke = (await listKeysJson(revokeDatabaseUrl)).find((k) => k.id === listed.id);
        assert.ok(afterRevoke?.revokedAt, 'keys list shows when it was revoked');
      });

      it('answers exit code 1 when no key has the id, and 2 when the id is not a number', async () => {
        const [missing, notANumber] = await Promise.all([
          runCli(['keys', 'revoke', '999999'], { DATABASE_URL: revokeDatabaseUrl }),
          runCli(['keys', 'revoke', 'abc'], { DATABASE_URL: revokeDatabaseUrl }),
        ]);
        assert.equal(missing.code, 1, missing.stderr);
        assert.match(missing.stderr, /999999/);
        assert.equal(notANumber.code, 2, notANumber.stderr);
      });
    });

    describe('when a key made with --expires-in 1s expires', () => {
      it('answers 200 before the expiry and 401 after it', async () => {
        const expiring = await createKey(databaseUrl, ['--expires-in', '1s']);
        assert.equal((await call(server, 'GET', '/v1/pets?limit=1', { key: expiring })).status, 200, 'the key works at first');
        // Refused once it expires; the deadline only fails a key still accepted long after its second.
        await waitUntil(async () => (await call(server, 'GET', '/v1/pets?limit=1', { key: expiring })).status !== 200, {
          deadlineMs: 10_000,
          everyMs: 100,
          what: 'the key made with --expires-in 1s is still accepted',
        });
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key: expiring });
        assertErrorBody(answer, { status: 401, code: 'unauthorized' });
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
      });
    });
  });
}
