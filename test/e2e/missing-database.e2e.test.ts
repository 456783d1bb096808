/**
 * A PostgreSQL URL naming a database that does not exist yet, as a new operator's first try
 * does: the command says so, says how to create it, and exits 1; once created, it works.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import pg from 'pg';
import { runCli, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { describeOnPostgres } from '../helpers/test-db.js';

describeOnPostgres('animal-store on a PostgreSQL database that does not exist', { timeout: SUITE_STUCK_MS }, () => {
  const missingDatabaseUrl = () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/animal_store_missing_${randomBytes(4).toString('hex')}`;
    // A password the hint must not repeat (trust authentication ignores it).
    url.password = 'not-to-be-shown';
    return url;
  };

  for (const args of [['migrate'], ['serve', '--no-bootstrap-key'], ['keys', 'list']]) {
    it(`${args.join(' ')} > exits 1 saying the database does not exist and how to create it, without the password`, async () => {
      const url = missingDatabaseUrl();
      const name = url.pathname.slice(1);
      const result = await runCli(args, { DATABASE_URL: url.toString(), PORT: '0' });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`database "${name}" does not exist`));
      assert.match(result.stderr, /animal-store creates its tables, not the database/);
      const port = url.port || '5432';
      assert.ok(result.stderr.includes(`createdb -h ${url.hostname} -p ${port} -U ${url.username} ${name}`), result.stderr);
      assert.ok(result.stderr.includes(`psql -h ${url.hostname} -p ${port} -U ${url.username} -d postgres -c 'create database "${name}"'`), result.stderr);
      assert.doesNotMatch(result.stderr + result.stdout, /not-to-be-shown/);
    });
  }

  it('migrate > once the database is created as the hint says, applies the migrations and exits 0', async () => {
    const url = missingDatabaseUrl();
    const name = url.pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`create database "${name}"`);
      const result = await runCli(['migrate'], { DATABASE_URL: url.toString() });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /Applied: /);
    } finally {
      await admin.query(`drop database if exists "${name}"`);
      await admin.end();
    }
  });
});
