/**
 * End to end, the built command's life: the first start on an empty key store (the bootstrap
 * key), a SIGTERM with a request in flight, and a wrong configuration or command.
 *
 * Real child processes (`dist/cli.js`, which `npm test` builds first), real HTTP on a real port,
 * a real database: no mocks, no inject(). The whole file runs once per dialect (a SQLite file in a
 * temporary folder; a fresh PostgreSQL schema when TEST_DATABASE_URL is set, else it shows as
 * skipped) with the same assertions, so every behaviour is shown to be the same on both.
 */
import http from 'node:http';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sqlitePathOf } from '../../src/db/database-url.js';
import { call, createKey, KEY_PATTERN, listKeysJson, type Pet, suitePlaces, unique, walk } from '../helpers/cli-e2e.js';
import { runCli, type RunningService, spawnService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { waitUntil } from '../helpers/wait-for.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  // A safety net: a hung process or request fails the file instead of stalling `npm test`.
  describeOnDialect(dialect, `animal-store serve on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    // These tests start servers of their own, each on a new database.
    const newDatabaseUrl = suitePlaces(dialect);

    describe('when it starts on an empty key store', () => {
      let bootstrapDatabaseUrl: string;
      let first: RunningService;
      let printedKey: string;
      let curlUrl: string;

      before(async () => {
        bootstrapDatabaseUrl = await newDatabaseUrl();
        first = await spawnService({ databaseUrl: bootstrapDatabaseUrl, args: ['serve'] });
        // The key is made once the service listens, so it may follow the "listening" line.
        await waitUntil(() => /ask_[A-Za-z0-9_-]{43}/.test(first.stdout()), { deadlineMs: 5000, everyMs: 50, what: 'the bootstrap key is not printed' });
      });
      after(async () => {
        await first?.stop();
      });

      it('answers a new key and a curl example on stdout, once, and never in the log', async () => {
        const stdout = first.stdout();
        const keyLine = stdout.split('\n').find((line) => KEY_PATTERN.test(line.trim()));
        assert.ok(keyLine, `a key on stdout:\n${stdout}`);
        printedKey = keyLine.trim();
        const curl = stdout.split('\n').find((line) => /^\s*curl /.test(line));
        assert.ok(curl, `a curl example on stdout:\n${stdout}`);
        const match = /curl -H "Authorization: Bearer (ask_[A-Za-z0-9_-]{43})" (\S+)$/.exec(curl.trim());
        assert.ok(match, curl);
        assert.equal(match[1], printedKey, 'the curl example uses the printed key');
        curlUrl = match[2]!;
        assert.match(curlUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1\/pets$/);
        assert.ok(!first.logs.some((line) => JSON.stringify(line).includes(printedKey)), 'the key is in a log line');

        assert.equal((await call(first, 'GET', '/v1/pets', { key: printedKey })).status, 200, 'the printed key works');
      });

      it('answers the curl example at the port it actually listens on', async () => {
        assert.equal(curlUrl, `${first.baseUrl}/v1/pets`);
      });

      it('says the key commands need the same DATABASE_URL, and names this one', () => {
        const location = dialect === 'sqlite' ? `sqlite:${sqlitePathOf(bootstrapDatabaseUrl)}` : bootstrapDatabaseUrl;
        assert.ok(first.stdout().includes(`The command must see the same DATABASE_URL as this service (${location})`), first.stdout());
      });

      it('answers no key on stdout at the second start on the same database', async () => {
        const firstExit = await first.stop();
        assert.equal(firstExit.code, 0);
        const second = await spawnService({ databaseUrl: bootstrapDatabaseUrl, args: ['serve'] });
        try {
          assert.ok(!/ask_[A-Za-z0-9_-]{43}/.test(second.stdout()), `no key at the second start:\n${second.stdout()}`);
          assert.ok(!second.stdout().includes('curl'), 'no curl example at the second start');
          assert.equal((await call(second, 'GET', '/v1/pets', { key: printedKey })).status, 200, 'the first key still works');
        } finally {
          assert.equal((await second.stop()).code, 0);
        }
        const keys = await listKeysJson(bootstrapDatabaseUrl);
        assert.deepEqual(
          keys.map((k) => k.name),
          ['bootstrap'],
        );
      });
    });

    describe('when it receives SIGTERM with a request in flight', () => {
      let stopDatabaseUrl: string;
      let stopping: RunningService;
      let stopKey: string;

      before(async () => {
        stopDatabaseUrl = await newDatabaseUrl();
        stopKey = await createKey(stopDatabaseUrl);
        stopping = await spawnService({ databaseUrl: stopDatabaseUrl });
      });
      after(async () => {
        await stopping?.stop();
      });

      it('answers the request in flight, then exits 0 and logs "stopped"', { timeout: 20_000 }, async () => {
        const name = unique('in-flight');
        const body = JSON.stringify({ name, categoryId: 1 });
        const half = Math.floor(body.length / 2);
        // Expect: 100-continue makes the server say when it has taken the request, so the signal
        // is sent while the request is surely in flight: headers read, body half sent.
        const request = http.request(`${stopping.baseUrl}/v1/pets`, {
          method: 'POST',
          agent: false,
          headers: {
            authorization: `Bearer ${stopKey}`,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            expect: '100-continue',
          },
        });
        const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
          request.on('error', reject);
          request.on('response', (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
            res.on('error', reject);
          });
        });
        await new Promise<void>((resolve) => request.once('continue', resolve));
        // Half the body has left for the service: the request is in flight when SIGTERM comes.
        await new Promise<void>((resolve, reject) => request.write(body.slice(0, half), (error) => (error ? reject(error) : resolve())));

        const exit = stopping.stop('SIGTERM');
        await stopping.waitForLog((line) => String(line.msg).startsWith('stopping'));
        request.end(body.slice(half));

        const answer = await response;
        assert.equal(answer.status, 201, answer.text);
        assert.equal((JSON.parse(answer.text) as Pet).name, name);
        const result = await exit;
        assert.deepEqual(result, { code: 0, signal: null });
        assert.ok(
          stopping.logs.some((line) => line.msg === 'stopped'),
          'logs "stopped"',
        );
        assert.ok(
          stopping.logs.some((line) => line.msg === 'request' && line.statusCode === 201),
          'the request in flight was logged',
        );

        // It stopped for good: the port is closed, and the pet was committed.
        await assert.rejects(fetch(`${stopping.baseUrl}/healthz`));
        const restarted = await spawnService({ databaseUrl: stopDatabaseUrl });
        try {
          const { pets } = await walk(restarted, stopKey, '/v1/pets?limit=100');
          assert.equal(pets.filter((p) => p.name === name).length, 1, 'the pet answered 201 was stored');
        } finally {
          await restarted.stop();
        }
      });
    });

    describe('when the configuration or the command is wrong', () => {
      // Each command gets a new, empty database of its own, as an operator's first attempt would.
      let portUrl: string;
      let commandUrl: string;
      let optionUrl: string;

      before(async () => {
        [portUrl, commandUrl, optionUrl] = await Promise.all([newDatabaseUrl(), newDatabaseUrl(), newDatabaseUrl()]);
      });

      it('answers exit code 1 and names PORT on stderr when PORT=abc', async () => {
        const result = await runCli(['serve'], { PORT: 'abc', DATABASE_URL: portUrl });
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /PORT/);
        assert.equal(result.stdout, '');
      });

      it('answers exit code 2 and the usage for an unknown command', async () => {
        const result = await runCli(['frobnicate'], { DATABASE_URL: commandUrl });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /frobnicate/);
        assert.match(result.stderr, /Usage:/);
      });

      it('answers exit code 2 for an option the command does not take, instead of ignoring it', async () => {
        const result = await runCli(['keys', 'list', '--workers', '3'], { DATABASE_URL: optionUrl });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /keys list does not take --workers/);
      });

      it('answers exit code 2 for an argument the command does not take', async () => {
        const result = await runCli(['keys', 'revoke', '3', '4'], { DATABASE_URL: optionUrl });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /keys revoke takes no argument "4"/);
      });
    });
  });
}
