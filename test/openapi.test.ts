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

  it('the document > describes exactly the five operations, with bearer security and every answer', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.deepEqual(Object.keys(document.paths).sort(), ['/pets', '/pets/{petId}']);
    const operations = {
      listPets: document.paths['/pets'].get,
      createPet: document.paths['/pets'].post,
      getPet: document.paths['/pets/{petId}'].get,
      updatePet: document.paths['/pets/{petId}'].patch,
      deletePet: document.paths['/pets/{petId}'].delete,
    };
    assert.deepEqual(Object.values(operations).map((o) => o.operationId), ['listPets', 'createPet', 'getPet', 'updatePet', 'deletePet']);
    assert.deepEqual(Object.keys(document.paths['/pets/{petId}']).sort(), ['delete', 'get', 'patch']);
    assert.deepEqual(document.security, [{ bearerAuth: [] }]);
    assert.deepEqual(document.components.securitySchemes.bearerAuth, { ...document.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(Object.keys(operations.listPets.responses).sort(), ['200', '400', '401', '403', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.createPet.responses).sort(), ['201', '400', '401', '403', '413', '415', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.getPet.responses).sort(), ['200', '400', '401', '403', '404', '410', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.updatePet.responses).sort(), ['200', '400', '401', '403', '404', '412', '413', '415', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.deletePet.responses).sort(), ['204', '400', '401', '403', '404', '412', '429', '500', '503']);
    assert.equal(operations.getPet.deprecated, true);
    assert.equal(document.components.schemas.NewPet.properties.status.default, 'available');
    assert.deepEqual(document.components.schemas.Error.properties.code.enum, Object.keys(ERROR_CODES));
    assert.equal(document.components.schemas.NewPet.additionalProperties, false);
    // Change and remove: merge patch bodies, If-Match in, ETag out, no content on 204.
    assert.deepEqual(Object.keys(operations.updatePet.requestBody.content), ['application/merge-patch+json', 'application/json']);
    assert.deepEqual(operations.updatePet.requestBody.content['application/merge-patch+json'].schema, { $ref: '#/components/schemas/PetPatch' });
    for (const operation of [operations.updatePet, operations.deletePet]) {
      assert.ok(operation.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'If-Match'));
    }
    for (const answer of [operations.createPet.responses['201'], operations.getPet.responses['200'], operations.updatePet.responses['200']]) {
      assert.ok(answer.headers.ETag, 'ETag documented');
    }
    assert.equal(operations.deletePet.responses['204'].content, undefined);
    assert.equal(document.components.schemas.PetPatch.additionalProperties, false);
    assert.equal(document.components.schemas.PetPatch.minProperties, 1);
    assert.equal(document.components.schemas.Pet.properties.name.format, 'display-text');
    const limit = operations.listPets.parameters.find((p: { name: string }) => p.name === 'limit');
    assert.deepEqual({ required: limit.required, ...limit.schema }, { required: false, minimum: 1, maximum: 100, default: 20, type: 'integer' });
  });

  it('the 503 answers > tell that a write may have happened, on the write and only there', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const unavailable = (operation: { responses: Record<string, { description: string }> }) => operation.responses['503']!.description;
    const uncertain = /The write may or may not have happened.*look for it.*may store it twice.*Idempotency-Key.*not available yet/s;
    assert.match(unavailable(document.paths['/pets'].post), uncertain);
    assert.match(unavailable(document.paths['/pets/{petId}'].patch), uncertain);
    assert.match(unavailable(document.paths['/pets/{petId}'].delete), uncertain);
    assert.doesNotMatch(unavailable(document.paths['/pets'].get), /write/);
    assert.doesNotMatch(unavailable(document.paths['/pets/{petId}'].get), /write/);
  });

  it('each operation > lists the scope its route declares in its security requirement and its description, and documents the 403', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const declared = { listPets: 'pets:read', createPet: 'pets:write', getPet: 'pets:read', updatePet: 'pets:write', deletePet: 'pets:write' };
    const operations = [document.paths['/pets'].get, document.paths['/pets'].post, document.paths['/pets/{petId}'].get, document.paths['/pets/{petId}'].patch, document.paths['/pets/{petId}'].delete];
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
