/**
 * PostgreSQL only: a deadlock (40P01) or serialization failure (40001) that no retried write
 * transaction caught (db/retry-conflicts.ts) is answered 503 service_unavailable with Retry-After,
 * as an outage is: nothing was written, and retrying is the remedy. Raised by the server itself,
 * from a view every read of the pets goes through.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp } from '../helpers/test-app.js';
import { describeOnPostgres } from '../helpers/test-db.js';

describeOnPostgres('transaction conflicts that escape the retries', {}, () => {
  for (const [condition, code] of [
    ['deadlock_detected', '40P01'],
    ['serialization_failure', '40001'],
  ] as const) {
    it(`Attack: a ${condition} (${code}) that no retry caught > 503 service_unavailable with Retry-After, not 500`, async () => {
      const other = await createTestApp('postgres');
      try {
        assert.equal(
          (await other.app.inject({ method: 'POST', url: '/v1/pets', headers: other.auth, payload: { name: 'Rex', categoryId: 1 } })).statusCode,
          201,
        );
        // Every read of a pet raises the condition, as PostgreSQL itself would.
        await sql`create function raise_conflict() returns boolean language plpgsql as $$ begin raise exception 'as the server would' using errcode = ${sql.lit(condition)}; end $$`.execute(
          other.database.db,
        );
        await sql`alter table pets rename to pets_kept`.execute(other.database.db);
        await sql`create view pets as select * from pets_kept where raise_conflict()`.execute(other.database.db);
        const response = await other.app.inject({ method: 'GET', url: '/v1/pets', headers: { ...other.auth, 'x-request-id': `conflict-${code}` } });
        const body = assertErrorBody(response, { status: 503, code: 'service_unavailable' });
        assert.equal(body.message, 'the request collided with concurrent changes; retry later');
        assert.equal(response.headers['retry-after'], '5');
        assert.ok(
          other.logs.some((line) => line.requestId === `conflict-${code}` && line.level === 40),
          'logged as a warning, not an error',
        );
      } finally {
        await other.close();
      }
    });
  }
});
