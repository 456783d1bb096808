import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES } from '../src/errors.js';
import { SCOPES } from '../src/keys/scopes.js';
import { generateOpenApiDocument } from '../src/openapi-document.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

describe('openapi.json', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite', { env: { PUBLIC_BASE_URL: 'https://api.store.test/v1', STAGING_BASE_URL: 'https://staging.store.test/v1' } });
  });
  after(() => t.close());

  it('the committed document > equals what the code generates (run `npm run openapi` after changing a schema)', async () => {
    const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(committed, JSON.parse(JSON.stringify(await generateOpenApiDocument())));
  });

  it('GET /v1/openapi.json > serves OpenAPI 3.1 version 1.0.0 with the configured servers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.version, '1.0.0');
    assert.deepEqual(
      document.servers.map((s: { url: string }) => s.url),
      ['https://api.store.test/v1', 'https://staging.store.test/v1'],
    );
  });

  it('the document > describes exactly the three operations, with bearer security and every answer', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.deepEqual(Object.keys(document.paths).sort(), ['/pets', '/pets/{petId}']);
    const operations = {
      listPets: document.paths['/pets'].get,
      createPet: document.paths['/pets'].post,
      getPet: document.paths['/pets/{petId}'].get,
    };
    assert.deepEqual(Object.values(operations).map((o) => o.operationId), ['listPets', 'createPet', 'getPet']);
    assert.deepEqual(document.security, [{ bearerAuth: [] }]);
    assert.deepEqual(document.components.securitySchemes.bearerAuth, { ...document.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(Object.keys(operations.listPets.responses).sort(), ['200', '400', '401', '403', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.createPet.responses).sort(), ['201', '400', '401', '403', '413', '415', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.getPet.responses).sort(), ['200', '400', '401', '403', '404', '410', '429', '500', '503']);
    assert.equal(operations.getPet.deprecated, true);
    assert.equal(document.components.schemas.NewPet.properties.status.default, 'available');
    assert.deepEqual(document.components.schemas.Error.properties.code.enum, Object.keys(ERROR_CODES));
    assert.equal(document.components.schemas.NewPet.additionalProperties, false);
    const limit = operations.listPets.parameters.find((p: { name: string }) => p.name === 'limit');
    assert.deepEqual({ required: limit.required, ...limit.schema }, { required: false, minimum: 1, maximum: 100, default: 20, type: 'integer' });
  });

  it('each operation > lists the scope its route declares in its security requirement and its description, and documents the 403', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const declared = { listPets: 'pets:read', createPet: 'pets:write', getPet: 'pets:read' };
    const operations = [document.paths['/pets'].get, document.paths['/pets'].post, document.paths['/pets/{petId}'].get];
    for (const operation of operations) {
      const scope = declared[operation.operationId as keyof typeof declared];
      assert.deepEqual(operation.security, [{ bearerAuth: [scope] }], operation.operationId);
      assert.ok(operation.description.includes(`**Requires scope \`${scope}\`**`), operation.operationId);
      assert.deepEqual(Object.keys(operation.responses['403'].content['application/json'].examples), ['insufficient_scope']);
      assert.ok(operation.responses['403'].headers['WWW-Authenticate'], operation.operationId);
    }
    for (const scope of SCOPES) assert.ok(document.info.description.includes(`\`${scope}\``), scope);
  });

  it('GET /docs > serves the interactive reference without a key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /swagger-ui/i);
  });
});
