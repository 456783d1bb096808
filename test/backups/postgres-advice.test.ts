import assert from 'node:assert/strict';
import { it } from 'node:test';
import { postgresAdvice } from '../../src/backups/postgres-advice.js';

it('postgresAdvice > a URL with no port and a password > names port 5432 and never the password', () => {
  const advice = postgresAdvice('backup', 'postgres://app:pa55word@db.example/store', 'x.dump');
  assert.ok(advice.includes('pg_dump -Fc -h db.example -p 5432 -U app -d store -f x.dump'), advice);
  assert.ok(!advice.includes('pa55word'), advice);
});

it('postgresAdvice > a Unix socket given as ?host= > names the socket folder as the host', () => {
  const advice = postgresAdvice('restore', 'postgresql:///store?host=/var/run/postgresql', 'x.dump');
  assert.match(advice, /pg_restore --no-owner -h \/var\/run\/postgresql -p 5432 -U \S+ -d store x\.dump/);
});

it('postgresAdvice > a URL that does not parse (a / in the password) > refers to $DATABASE_URL and never quotes it', () => {
  const advice = postgresAdvice('backup', 'postgres://app:pa/ss@db.example/store', 'x.dump');
  assert.ok(advice.includes('pg_dump -Fc -d "$DATABASE_URL" -f x.dump'), advice);
  assert.ok(!advice.includes('pa/ss'), advice);
});
