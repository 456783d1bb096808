/**
 * End to end, the built command's refusals and the fields every answer carries: missing or wrong
 * keys, invalid bodies, unknown paths and methods, public endpoints, request ids and headers.
 *
 * Real child processes (`dist/cli.js`, which `npm test` builds first), real HTTP on a real port,
 * a real database: no mocks, no inject(). The whole file runs once per dialect (a SQLite file in a
 * temporary folder; a fresh PostgreSQL schema when TEST_DATABASE_URL is set, else it shows as
 * skipped) with the same assertions, so every behaviour is shown to be the same on both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, servedSuite, unique, UUID_PATTERN, walk } from '../helpers/cli-e2e.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { type RunningService, SUITE_STUCK_MS } from '../helpers/spawn-service.js';
import { ALL_DIALECTS, describeOnDialect } from '../helpers/test-db.js';

for (const dialect of ALL_DIALECTS) {
  // A safety net: a hung process or request fails the file instead of stalling `npm test`.
  describeOnDialect(dialect, `animal-store serve on ${dialect}`, { timeout: SUITE_STUCK_MS }, () => {
    // The server most tests talk to, on its own database, with a key made by the CLI.
    let server: RunningService;
    let key: string;
    servedSuite(dialect, (suite) => ({ server, key } = suite));

    describe('when the API key is missing, wrong or oddly written', () => {
      it('answers 401 unauthorized with a Bearer challenge when no key is sent', async () => {
        for (const [method, path] of [
          ['GET', '/v1/pets'],
          ['GET', '/v1/pets/1'],
          ['POST', '/v1/pets'],
        ] as const) {
          const answer = await call(server, method, path, method === 'POST' ? { body: { name: unique('nokey'), categoryId: 1 } } : {});
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
      });

      it('answers 401 unauthorized with a Bearer challenge for an unknown or malformed key', async () => {
        const wrongKeys = [`ask_${'A'.repeat(43)}`, key.slice(0, -1), `${key}x`, 'not-a-key'];
        for (const wrong of wrongKeys) {
          const answer = await call(server, 'GET', '/v1/pets', { key: wrong });
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
        for (const authorization of [`Basic ${Buffer.from(`user:${key}`).toString('base64')}`, key, 'Bearer', '']) {
          const answer = await call(server, 'GET', '/v1/pets', { headers: { authorization } });
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
      });

      it('answers 200 when the scheme is written in lower case (bearer)', async () => {
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { headers: { authorization: `bearer ${key}` } });
        assert.equal(answer.status, 200, answer.text);
      });

      it('answers 401 before 400, 413 or 415: a request without a key learns nothing about its body', async () => {
        const name = unique('unauthenticated');
        const bodies: { body: string; contentType: string }[] = [
          { body: '{', contentType: 'application/json' },
          { body: JSON.stringify({ name, categoryId: '5' }), contentType: 'application/json' },
          { body: JSON.stringify({ name, categoryId: 1, stauts: 'sold' }), contentType: 'application/json' },
          { body: 'name=x', contentType: 'text/plain' },
          { body: JSON.stringify({ name: 'x'.repeat(70 * 1024), categoryId: 1 }), contentType: 'application/json' },
        ];
        for (const { body, contentType } of bodies) {
          const answer = await call(server, 'POST', '/v1/pets', { body, headers: { 'content-type': contentType } });
          assertErrorBody(answer, { status: 401, code: 'unauthorized' });
        }
        assertErrorBody(await call(server, 'GET', '/v1/pets?limit=abc'), { status: 401, code: 'unauthorized' });
        assertErrorBody(await call(server, 'GET', '/v1/pets/abc'), { status: 401, code: 'unauthorized' });
      });
    });

    describe('when a client sends an invalid body', () => {
      it('answers 400 validation_failed naming the field, and stores nothing', async () => {
        const name = unique('invalid');
        const cases: { body: Record<string, unknown>; field: string }[] = [
          { body: { name, categoryId: '5' }, field: 'body.categoryId' },
          { body: { id: 7, name, categoryId: 1 }, field: 'body.id' },
          { body: { name, categoryId: 1, stauts: 'sold' }, field: 'body.stauts' },
          { body: { name, categoryId: 1.5 }, field: 'body.categoryId' },
          { body: { name, categoryId: 0 }, field: 'body.categoryId' },
          { body: { name, categoryId: null }, field: 'body.categoryId' },
          { body: { name, categoryId: 1, status: 'lost' }, field: 'body.status' },
          { body: { name: '   ', categoryId: 1 }, field: 'body.name' },
          { body: { name: '', categoryId: 1 }, field: 'body.name' },
          { body: { categoryId: 1 }, field: 'body.name' },
        ];
        for (const { body, field } of cases) {
          const error = assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body }), { status: 400, code: 'validation_failed' });
          assert.ok(
            error.details?.some((d) => d.field === field),
            `${JSON.stringify(body)}: details name ${field}: ${JSON.stringify(error)}`,
          );
        }
        const unknownField = assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body: { name, categoryId: 1, stauts: 'sold' } }), {
          status: 400,
          code: 'validation_failed',
        });
        assert.match(unknownField.message, /stauts/);
        const { pets } = await walk(server, key, '/v1/pets?limit=100');
        assert.ok(!pets.some((p) => p.name === name), 'no invalid pet was stored');
      });

      it('answers 400 malformed_json for invalid JSON, an empty body, or an integer beyond 2^53-1, and stores nothing', async () => {
        const name = unique('huge');
        for (const body of ['{', '', '{"name":"x",}', `{"name":"${name}","categoryId":9007199254740993}`]) {
          assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'application/json' } }), {
            status: 400,
            code: 'malformed_json',
          });
        }
        const { pets } = await walk(server, key, '/v1/pets?limit=100');
        assert.ok(!pets.some((p) => p.name === name), 'the pet with a rounded categoryId was not stored');
      });

      it('answers 413 payload_too_large for a body over 64 KiB', async () => {
        const body = JSON.stringify({ name: unique('big').padEnd(65 * 1024, 'x'), categoryId: 1 });
        assert.ok(Buffer.byteLength(body) > 64 * 1024);
        assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'application/json' } }), {
          status: 413,
          code: 'payload_too_large',
        });
      });

      it('answers 415 unsupported_media_type for text/plain', async () => {
        const body = JSON.stringify({ name: unique('plain'), categoryId: 1 });
        assertErrorBody(await call(server, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'text/plain' } }), {
          status: 415,
          code: 'unsupported_media_type',
        });
      });
    });

    describe('when the path or the method is unknown', () => {
      it('answers 404 route_not_found for /v1/nope, with or without a key', async () => {
        assertErrorBody(await call(server, 'GET', '/v1/nope', { key }), { status: 404, code: 'route_not_found' });
        assertErrorBody(await call(server, 'GET', '/v1/nope'), { status: 404, code: 'route_not_found' });
      });

      it('answers 405 method_not_allowed with an Allow header for DELETE /v1/pets', async () => {
        const answer = await call(server, 'DELETE', '/v1/pets', { key });
        assertErrorBody(answer, { status: 405, code: 'method_not_allowed' });
        const allow = (answer.headers.get('allow') ?? '').split(/,\s*/);
        assert.ok(allow.includes('GET') && allow.includes('POST'), `Allow: ${allow.join(', ')}`);
        assert.ok(!allow.includes('DELETE'));

        const put = await call(server, 'PUT', '/v1/pets/1', { key, body: { name: 'x', categoryId: 1 } });
        assertErrorBody(put, { status: 405, code: 'method_not_allowed' });
        assert.ok((put.headers.get('allow') ?? '').split(/,\s*/).includes('GET'));
      });
    });

    describe('when public endpoints are called without a key', () => {
      it('answers 200 with the OpenAPI document at /v1/openapi.json', async () => {
        const answer = await call(server, 'GET', '/v1/openapi.json');
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
        const document = answer.body as { openapi: string; paths: Record<string, unknown> };
        assert.match(document.openapi, /^3\./);
        assert.ok('/pets' in document.paths && '/pets/{petId}' in document.paths, Object.keys(document.paths).join(', '));
      });

      it('answers 200 at /healthz and /readyz', async () => {
        const health = await call(server, 'GET', '/healthz');
        assert.equal(health.status, 200);
        assert.deepEqual(health.body, { status: 'ok' });
        const ready = await call(server, 'GET', '/readyz');
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.body, { status: 'ready' });
      });
    });

    describe('when any request is answered', () => {
      it('answers the X-Request-Id the client sent, and a new one otherwise', async () => {
        const echoed = await call(server, 'GET', '/v1/pets?limit=1', { key, headers: { 'x-request-id': 'abc-123' } });
        assert.equal(echoed.headers.get('x-request-id'), 'abc-123');
        const echoedError = await call(server, 'GET', '/v1/pets', { headers: { 'x-request-id': 'abc-123' } });
        assert.equal(echoedError.status, 401);
        assert.equal(echoedError.headers.get('x-request-id'), 'abc-123');

        const first = (await call(server, 'GET', '/healthz')).headers.get('x-request-id') ?? '';
        const second = (await call(server, 'GET', '/healthz')).headers.get('x-request-id') ?? '';
        assert.match(first, UUID_PATTERN);
        assert.match(second, UUID_PATTERN);
        assert.notEqual(first, second);

        // An id unsafe to echo or log is replaced.
        const replaced = await call(server, 'GET', '/healthz', { headers: { 'x-request-id': 'x'.repeat(200) } });
        assert.match(replaced.headers.get('x-request-id') ?? '', UUID_PATTERN);

        const logged = await server.waitForLog((line) => line.requestId === 'abc-123' && line.statusCode === 200);
        assert.equal(logged.msg, 'request');
      });

      it('answers JSON with cache-control: no-store and x-content-type-options: nosniff', async () => {
        const answers = [
          await call(server, 'POST', '/v1/pets', { key, body: { name: unique('headers'), categoryId: 1 } }),
          await call(server, 'GET', '/v1/pets?limit=1', { key }),
          await call(server, 'GET', '/v1/pets'),
          await call(server, 'GET', '/v1/nope', { key }),
          await call(server, 'GET', '/healthz'),
        ];
        for (const answer of answers) {
          assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
          assert.equal(answer.headers.get('cache-control'), 'no-store');
          assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
        }
      });

      it('answers without ever writing the API key or the Authorization header to the log', async () => {
        const answer = await call(server, 'GET', '/v1/pets?limit=1', { key, headers: { 'x-request-id': 'log-check-1' } });
        assert.equal(answer.status, 200);
        const line = await server.waitForLog((l) => l.requestId === 'log-check-1');
        assert.equal(line.statusCode, 200);
        assert.equal(typeof line.keyPrefix, 'string');
        assert.equal(line.keyPrefix, key.slice(0, (line.keyPrefix as string).length), 'the log names the key by its prefix');
        assert.ok(!server.stdout().includes(key), 'the key is in the log');
        assert.ok(!server.stdout().includes(`Bearer ${key.slice(0, 20)}`), 'an Authorization header is in the log');
      });
    });
  });
}
