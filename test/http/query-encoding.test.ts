import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { malformedQueryParameter } from '../../src/http/query-encoding.js';
import { assertErrorBody } from '../helpers/error-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('malformedQueryParameter', () => {
  it('well-formed queries > answer undefined', () => {
    for (const url of ['/v1/pets', '/v1/pets?', '/v1/pets?name=r%C3%A9x', '/v1/pets?name=a+b&id=1&id=2', '/v1/pets?name=%25FF', '/v1/pets?%6Eame=x']) {
      assert.equal(malformedQueryParameter(url), undefined, url);
    }
  });

  it('bytes that are not UTF-8, cut sequences, a lone % or a bad escape > name the parameter', () => {
    assert.equal(malformedQueryParameter('/v1/pets?name=%FF'), 'name');
    assert.equal(malformedQueryParameter('/v1/pets?limit=1&name=%E2%82'), 'name');
    assert.equal(malformedQueryParameter('/v1/pets?status=100%'), 'status');
    assert.equal(malformedQueryParameter('/v1/pets?status=%zz'), 'status');
    assert.equal(malformedQueryParameter('/v1/pets?na%FFme=x'), 'na%FFme');
    assert.equal(malformedQueryParameter(`/v1/pets?${'k'.repeat(100)}=%FF`), `${'k'.repeat(64)}…`);
  });
});

describe('GET /v1/pets and /v1/store/orders with a query that is not valid percent-encoded UTF-8', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  const get = (url: string, auth = true) => t.app.inject({ method: 'GET', url, headers: auth ? t.auth : {} });

  it('name=%FF > answers 400 validation_failed, rather than searching for the text "%FF"', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/pets', headers: t.auth, payload: { name: '%FFcat', categoryId: 1 } });
    assert.equal(created.statusCode, 201);
    // The pet is found when the client asks for the text "%FF", encoded as it must be…
    assert.deepEqual((await get('/v1/pets?name=%25FF')).json(), [created.json()]);
    // …but not when it sends a byte that is no UTF-8.
    const message = 'query.name is not valid percent-encoded UTF-8; encode the text as UTF-8 and percent-encode each byte (a % itself as %25)';
    const response = await get('/v1/pets?name=%FF');
    assertErrorBody(response, { status: 400, code: 'validation_failed', message: message });
    assert.deepEqual(response.json().details, [{ field: 'query.name', message }]);
  });

  it('status=%E2%82 on the orders listing > answers 400 naming status', async () => {
    assertErrorBody(await get('/v1/store/orders?status=%E2%82'), {
      status: 400,
      code: 'validation_failed',
      message: /^query\.status is not valid percent-encoded UTF-8/,
    });
  });

  it('without a key > answers 401 first, as for any other problem of the request', async () => {
    assertErrorBody(await get('/v1/pets?name=%FF', false), { status: 401, code: 'unauthorized', message: /a valid API key is required/ });
  });
});
