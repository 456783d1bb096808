import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DISPLAY_TEXT_PATTERN } from '../src/display-text.js';
import { SAMPLE_STORE } from '../src/docs-examples.js';
import { ERROR_CODES } from '../src/errors.js';
import { SCOPES } from '../src/keys/scopes.js';
import { stateMachineTable } from '../src/orders/orders.state-machine.js';
import { generateOpenApiDocument } from '../src/openapi-document.js';
import { allPublishedDocs } from './helpers/published-docs.js';
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

  it('GET /docs/json > the document /docs reads > lists the address of the page (/v1) first, then the configured servers, and is otherwise openapi.json', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(response.statusCode, 200);
    const { servers, ...rest } = response.json();
    assert.deepEqual(
      servers.map((s: { url: string }) => s.url),
      ['/v1', 'https://api.store.test/v1', 'https://staging.store.test/v1'],
    );
    assert.deepEqual({ ...rest, servers: served.servers }, served);
  });

  it('the document > the examples "Try it out" fills in > name SAMPLE_STORE rows, and none is given where none can be right (cursor, If-Match, Idempotency-Key)', () => {
    const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    const examples: Record<string, Record<string, unknown>> = {};
    for (const methods of Object.values(document.paths) as Record<string, { operationId: string; parameters?: { name: string; example?: unknown }[] }>[]) {
      for (const operation of Object.values(methods)) {
        const given = (operation.parameters ?? []).filter((p) => p.example !== undefined).map((p) => [p.name, p.example]);
        if (given.length > 0) examples[operation.operationId] = Object.fromEntries(given);
      }
    }
    assert.deepEqual(examples, {
      listPets: { categoryId: 3, name: 'Re' },
      getPet: { petId: SAMPLE_STORE.petToRead },
      updatePet: { petId: SAMPLE_STORE.petToChange },
      deletePet: { petId: SAMPLE_STORE.petToRemove },
      listOrders: { petId: SAMPLE_STORE.petToOrder },
      getOrder: { orderId: SAMPLE_STORE.orderToRead },
      approveOrder: { orderId: SAMPLE_STORE.orderToApprove },
      deliverOrder: { orderId: SAMPLE_STORE.orderToDeliver },
      cancelOrder: { orderId: SAMPLE_STORE.orderToCancel },
      getWebhookEndpoint: { endpointId: SAMPLE_STORE.webhookEndpointToRead },
      updateWebhookEndpoint: { endpointId: SAMPLE_STORE.webhookEndpointToRead },
      deleteWebhookEndpoint: { endpointId: SAMPLE_STORE.webhookEndpointToRemove },
      rotateWebhookEndpointSecret: { endpointId: SAMPLE_STORE.webhookEndpointToRead },
      listWebhookDeliveries: { endpointId: SAMPLE_STORE.webhookEndpointToRead },
      retryWebhookDelivery: { endpointId: SAMPLE_STORE.webhookEndpointToRead, deliveryId: SAMPLE_STORE.webhookDeliveryToRetry },
      testWebhookEndpoint: { endpointId: SAMPLE_STORE.webhookEndpointToRead },
      getApiKey: { keyId: SAMPLE_STORE.apiKeyToRead },
      revokeApiKey: { keyId: SAMPLE_STORE.apiKeyToRevoke },
    });
    assert.deepEqual(document.components.schemas.NewOrder.examples, [{ petId: SAMPLE_STORE.petToOrder }]);
    assert.deepEqual(document.components.schemas.PetPatch.examples[0], { status: 'sold' });
  });

  it('the document > describes exactly the five pets operations, with bearer security and every answer', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.deepEqual(
      Object.keys(document.paths)
        .filter((path) => path.startsWith('/pets'))
        .sort(),
      ['/pets', '/pets/{petId}'],
    );
    const operations = {
      listPets: document.paths['/pets'].get,
      createPet: document.paths['/pets'].post,
      getPet: document.paths['/pets/{petId}'].get,
      updatePet: document.paths['/pets/{petId}'].patch,
      deletePet: document.paths['/pets/{petId}'].delete,
    };
    assert.deepEqual(
      Object.values(operations).map((o) => o.operationId),
      ['listPets', 'createPet', 'getPet', 'updatePet', 'deletePet'],
    );
    assert.deepEqual(Object.keys(document.paths['/pets/{petId}']).sort(), ['delete', 'get', 'patch']);
    assert.deepEqual(document.security, [{ bearerAuth: [] }]);
    assert.deepEqual(document.components.securitySchemes.bearerAuth, { ...document.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(Object.keys(operations.listPets.responses).sort(), ['200', '400', '401', '403', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.createPet.responses).sort(), ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.getPet.responses).sort(), ['200', '400', '401', '403', '404', '410', '429', '500', '503']);
    assert.deepEqual(Object.keys(operations.updatePet.responses).sort(), [
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '412',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    assert.deepEqual(Object.keys(operations.deletePet.responses).sort(), ['204', '400', '401', '403', '404', '409', '412', '422', '429', '500', '503']);
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
    // The display-text rule travels as a pattern (tools ignore custom formats), the one the service validates with.
    for (const schema of ['Pet', 'NewPet', 'PetPatch']) {
      assert.equal(document.components.schemas[schema].properties.name.pattern, DISPLAY_TEXT_PATTERN);
      assert.equal(document.components.schemas[schema].properties.name.format, undefined);
    }
    const limit = operations.listPets.parameters.find((p: { name: string }) => p.name === 'limit');
    assert.deepEqual({ required: limit.required, ...limit.schema }, { required: false, minimum: 1, maximum: 100, default: 20, type: 'integer' });
  });

  it('the 503 answers > tell that a write may have happened, on the write and only there', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const unavailable = (operation: { responses: Record<string, { description: string }> }) => operation.responses['503']!.description;
    const uncertain =
      /Idempotency-Key.*retry with the same key.*stays uncertain even with a key.*Without a key, the write may or may not have happened.*Look for it.*may store it twice/s;
    const writes = [
      document.paths['/pets'].post,
      document.paths['/pets/{petId}'].patch,
      document.paths['/pets/{petId}'].delete,
      document.paths['/store/orders'].post,
      ...['approve', 'deliver', 'cancel'].map((action) => document.paths[`/store/orders/{orderId}/${action}`].post),
    ];
    for (const operation of writes) assert.match(unavailable(operation), uncertain, operation.operationId);
    assert.doesNotMatch(unavailable(document.paths['/pets'].get), /write/);
    assert.doesNotMatch(unavailable(document.paths['/pets/{petId}'].get), /write/);
  });

  it('each idempotent operation > documents Idempotency-Key, its 409 and 422, and Idempotent-Replayed; the others do not', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const idempotent = [
      'createPet',
      'updatePet',
      'deletePet',
      'placeOrder',
      'approveOrder',
      'deliverOrder',
      'cancelOrder',
      'createWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'rotateWebhookEndpointSecret',
      'createApiKey',
      'revokeApiKey',
    ];
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods as Record<string, any>));
    for (const operation of operations) {
      const header = (operation.parameters ?? []).find((p: { name: string; in: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!idempotent.includes(operation.operationId)) {
        assert.equal(header, undefined, operation.operationId);
        assert.equal(operation.responses['422'], undefined, operation.operationId);
        continue;
      }
      assert.equal(header.required, false, operation.operationId);
      assert.match(header.description, /structured-field string/);
      assert.ok(operation.responses['409'].content['application/json'].examples.idempotency_key_in_use, operation.operationId);
      assert.ok(operation.responses['409'].headers['Retry-After'], operation.operationId);
      assert.deepEqual(Object.keys(operation.responses['422'].content['application/json'].examples), ['idempotency_key_reused']);
      assert.ok(operation.responses['400'].content['application/json'].examples.invalid_idempotency_key, operation.operationId);
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'))!;
      assert.ok(operation.responses[success].headers['Idempotent-Replayed'], operation.operationId);
      assert.match(operation.description, /Idempotent with `Idempotency-Key`/);
    }
    assert.equal(operations.filter((o) => idempotent.includes(o.operationId)).length, idempotent.length);
  });

  it('each operation > lists the scope its route declares in its security requirement and its description, and documents the 403', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const declared = {
      listPets: 'pets:read',
      createPet: 'pets:write',
      getPet: 'pets:read',
      updatePet: 'pets:write',
      deletePet: 'pets:write',
      listOrders: 'orders:read',
      getOrder: 'orders:read',
      placeOrder: 'orders:write',
      approveOrder: 'orders:write',
      deliverOrder: 'orders:write',
      cancelOrder: 'orders:write',
      listEvents: ['pets:read', 'orders:read'],
      createWebhookEndpoint: 'webhooks:write',
      listWebhookEndpoints: 'webhooks:read',
      getWebhookEndpoint: 'webhooks:read',
      updateWebhookEndpoint: 'webhooks:write',
      deleteWebhookEndpoint: 'webhooks:write',
      rotateWebhookEndpointSecret: 'webhooks:write',
      listWebhookDeliveries: 'webhooks:read',
      retryWebhookDelivery: 'webhooks:write',
      testWebhookEndpoint: 'webhooks:write',
      listApiKeys: 'keys:manage',
      createApiKey: 'keys:manage',
      getApiKey: 'keys:manage',
      revokeApiKey: 'keys:manage',
    } as const;
    // Any valid key, whatever its scopes: the document's own security requirement, and no 403.
    const anyKey = ['getCurrentApiKey'];
    const operations = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods as Record<string, { operationId: string; security: unknown; description: string; responses: Record<string, any> }>),
    );
    assert.equal(operations.length, Object.keys(declared).length + anyKey.length);
    for (const operation of operations) {
      if (anyKey.includes(operation.operationId)) {
        assert.equal(operation.security, undefined, operation.operationId);
        assert.ok(operation.description.includes('**Any valid key** may call it, whatever its scopes.'), operation.operationId);
        assert.equal(operation.responses['403'], undefined, operation.operationId);
        continue;
      }
      const scope: string | readonly string[] = declared[operation.operationId as keyof typeof declared];
      // Several scopes are alternatives: one requirement each, and the description names them joined by "or".
      const scopes = typeof scope === 'string' ? [scope] : scope;
      assert.deepEqual(
        operation.security,
        scopes.map((one) => ({ bearerAuth: [one] })),
        operation.operationId,
      );
      if (typeof scope === 'string') assert.ok(operation.description.includes(`**Requires scope \`${scope}\`**`), operation.operationId);
      else
        assert.match(
          operation.description,
          new RegExp(`\\*\\*Requires scope ${scopes.map((one) => `\`${one}\` \\([^)]+\\)`).join(' or ')}\\*\\*`),
          operation.operationId,
        );
      assert.deepEqual(Object.keys(operation.responses['403'].content['application/json'].examples), ['insufficient_scope']);
      assert.ok(operation.responses['403'].headers['WWW-Authenticate'], operation.operationId);
    }
    for (const scope of SCOPES) assert.ok(document.info.description.includes(`\`${scope}\``), scope);
  });

  it('the store > has its six beta operations under the tag store, with the state machine in the tag', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    assert.deepEqual(
      Object.keys(document.paths)
        .filter((path) => path.startsWith('/store'))
        .sort(),
      ['/store/orders', '/store/orders/{orderId}', '/store/orders/{orderId}/approve', '/store/orders/{orderId}/cancel', '/store/orders/{orderId}/deliver'],
    );
    const operations = {
      placeOrder: document.paths['/store/orders'].post,
      listOrders: document.paths['/store/orders'].get,
      getOrder: document.paths['/store/orders/{orderId}'].get,
      approveOrder: document.paths['/store/orders/{orderId}/approve'].post,
      deliverOrder: document.paths['/store/orders/{orderId}/deliver'].post,
      cancelOrder: document.paths['/store/orders/{orderId}/cancel'].post,
    };
    for (const [operationId, operation] of Object.entries(operations)) {
      assert.equal(operation.operationId, operationId);
      assert.deepEqual(operation.tags, ['store']);
      assert.equal(operation['x-stability'], 'beta', operationId);
      assert.match(operation.description, /^\*\*Beta\.\*\* /, operationId);
    }
    assert.deepEqual(Object.keys(operations.placeOrder.responses).sort(), ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503']);
    assert.ok(operations.placeOrder.responses['201'].headers.Location);
    assert.deepEqual(operations.placeOrder.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/NewOrder' });
    assert.deepEqual(Object.keys(operations.cancelOrder.responses).sort(), ['200', '400', '401', '403', '404', '409', '415', '422', '429', '500', '503']);
    assert.deepEqual(
      operations.listOrders.parameters.map((p: { name: string }) => p.name),
      ['limit', 'status', 'petId', 'cursor'],
    );
    assert.deepEqual(document.components.schemas.OrderStatus.enum, ['placed', 'approved', 'delivered', 'cancelled']);
    assert.equal(document.components.schemas.NewOrder.additionalProperties, false);
    const store = document.tags.find((tag: { name: string }) => tag.name === 'store');
    assert.ok(store.description.includes(stateMachineTable()), 'the state machine table is in the tag');
    for (const code of ['pet_not_available', 'order_not_found', 'order_state_conflict', 'pet_has_open_order', 'pet_sold_by_order']) {
      assert.ok(document.components.schemas.Error.properties.code.enum.includes(code), code);
    }
  });

  it('the documentation > shows the state machine table the code applies, and documents every error code', () => {
    const documentation = allPublishedDocs();
    assert.ok(documentation.includes(stateMachineTable()), 'README or docs/ carry stateMachineTable() verbatim');
    for (const [code, { status }] of Object.entries(ERROR_CODES)) assert.match(documentation, new RegExp(`\\| \`${code}\` \\| ${status} \\|`), code);
  });

  it('GET /docs > serves the interactive reference without a key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /swagger-ui/i);
  });
});
