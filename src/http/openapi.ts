/**
 * The contract document: generated from the route schemas by @fastify/swagger, served at
 * /v1/openapi.json, and browsable at /docs where a user can paste a key and try each operation.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../errors.js';
import { type Scope, SCOPE_DESCRIPTIONS, SCOPES } from '../keys/scopes.js';
import { STORE_TAG } from '../orders/orders.docs.js';
import { GET_PET_SUNSET_DAY } from '../pets/get-pet-deprecation.js';
import { MAX_IDS_PER_LISTING, NAME_MAX_LENGTH } from '../pets/pets.schemas.js';
import { withIdempotency } from '../idempotency/idempotency.docs.js';
import { BETA_PROMISE } from './stability.js';
import { docsBranding } from './docs-branding.js';
import { WEBHOOKS_DOCUMENT } from '../webhooks/webhook-deliveries.docs.js';
import { WEBHOOKS_TAG } from '../webhooks/webhook-endpoints.docs.js';
import { KEYS_TAG } from '../keys/keys.docs.js';

export interface OpenApiOptions {
  publicBaseUrl: string;
  stagingBaseUrl: string;
  bodyLimitBytes: number;
  keyCacheTtlMs: number;
  rateLimitPerMinute: number;
}

const API_VERSION_PREFIX = '/v1';

/**
 * The first server of the document /docs reads (/docs/json), not of openapi.json: a URL relative
 * to the page, so "Try it out" calls the service at the address the page was opened at
 * (127.0.0.1, localhost, a proxy's name) without any CORS, whatever PUBLIC_BASE_URL says.
 */
const DOCS_PAGE_SERVER = { url: API_VERSION_PREFIX, description: 'This service, at the address of this page' } as const;

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Animal Store API',
        version: '1.0.0',
        summary: "A store's catalogue of animals (list, add, fetch, change and remove) and the orders that sell them.",
        description: describeApi(options),
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [
        { url: options.publicBaseUrl, description: 'Production' },
        { url: options.stagingBaseUrl, description: 'Staging: same paths, separate data and keys' },
      ],
      tags: [
        { name: 'pets', description: 'The animals of the store.' },
        STORE_TAG,
        { name: 'events', description: "The store's changes, as a feed every integrator can follow. **Beta.**" },
        WEBHOOKS_TAG,
        KEYS_TAG,
      ],
      // What the service sends to webhook endpoints (webhooks/webhook-deliveries.docs.ts).
      webhooks: WEBHOOKS_DOCUMENT,
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `An API key made by the operator with \`animal-store keys create --name NAME [--scope SCOPE]…\` (or by a key holding \`keys:manage\` with \`createApiKey\`), sent as \`Authorization: Bearer <API_KEY>\`. The scopes listed in an operation's security requirement are those the key needs: ${SCOPES.map((scope) => `\`${scope}\``).join(', ')}.`,
          },
        },
      },
    },
    // Paths are written relative to the servers, which already end in /v1. Each operation's
    // security requirement and its description's scope line come from the scope its route declares.
    // Idempotent routes (`config.idempotent`) document Idempotency-Key and its answers the same way.
    transform: ({ schema, url, route }) => ({
      schema: withIdempotencyIf(
        route.config?.idempotent === true,
        withScope(schema as OperationSchema | undefined, route.config?.scope, route.config?.anyKey === true),
      ) as typeof schema,
      url: url.startsWith(API_VERSION_PREFIX) ? url.slice(API_VERSION_PREFIX.length) : url,
    }),
    // Shared schemas keep their own names as components (Pet, NewPet, Error…).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // showExtensions: /docs shows `x-stability` beside each operation.
    uiConfig: { persistAuthorization: true, deepLinking: true, tryItOutEnabled: true, showExtensions: true },
    transformSpecification: (document) => ({ ...document, servers: [DOCS_PAGE_SERVER, ...((document.servers as unknown[] | undefined) ?? [])] }),
    ...docsBranding(),
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

interface OperationSchema {
  description?: string;
  security?: unknown;
  [key: string]: unknown;
}

function withIdempotencyIf(idempotent: boolean, schema: OperationSchema | undefined): OperationSchema | undefined {
  return idempotent ? withIdempotency(schema) : schema;
}

function withScope(schema: OperationSchema | undefined, scope: Scope | readonly Scope[] | undefined, anyKey: boolean): OperationSchema | undefined {
  if (schema && anyKey) return { ...schema, description: `${schema.description ?? ''}\n\n**Any valid key** may call it, whatever its scopes.`.trimStart() };
  if (!schema || !scope) return schema;
  if (typeof scope !== 'string') {
    // Security requirements listed side by side are alternatives: a key needs one of them.
    const named = scope.map((one) => `\`${one}\` (${SCOPE_DESCRIPTIONS[one]})`).join(' or ');
    return {
      ...schema,
      security: scope.map((one) => ({ bearerAuth: [one] })),
      description: `${schema.description ?? ''}\n\n**Requires scope ${named}**; a key with neither gets 403 \`insufficient_scope\`.`.trimStart(),
    };
  }
  return {
    ...schema,
    security: [{ bearerAuth: [scope] }],
    description:
      `${schema.description ?? ''}\n\n**Requires scope \`${scope}\`** (${SCOPE_DESCRIPTIONS[scope]}); a key without it gets 403 \`insufficient_scope\`.`.trimStart(),
  };
}

function describeApi(options: OpenApiOptions): string {
  const codes = Object.entries(ERROR_CODES)
    .map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`)
    .join('\n');
  return `Keeps the catalogue of animals offered by a store. Every operation exchanges JSON and needs \`Authorization: Bearer <API_KEY>\`.

## Decisions this API makes

- **API keys** are issued by the operator with the \`animal-store keys create\` command, shown once, stored only as a SHA-256 hash, and may expire (\`--expires-in\`) and be revoked (\`keys revoke\`). A revoked key stops working within ${Math.ceil(options.keyCacheTtlMs / 1000)} seconds on every instance.
- **Scopes** limit a key to what it is for: ${SCOPES.map((scope) => `\`${scope}\` (${SCOPE_DESCRIPTIONS[scope]})`).join(', ')}. The operator grants them with \`keys create --scope\` (repeatable); a key made without \`--scope\` has them all. Each operation names the scope it needs in its security requirement and its description; a valid key without it gets 403 \`insufficient_scope\` with \`WWW-Authenticate: Bearer realm="animal-store", error="insufficient_scope", scope="…"\` (RFC 6750 §3.1). A missing, unknown, expired or revoked key still gets 401.
- **Default status** of a new animal: \`available\`. **Transitions:** \`updatePet\` may set any status, except while the store's orders hold the animal: an open order keeps it \`pending\` (409 \`pet_has_open_order\`), and a delivered order keeps it \`sold\` (409 \`pet_sold_by_order\`). Orders move it as the \`store\` tag shows.
- **Names** have 1 to ${NAME_MAX_LENGTH} characters, not only white space, at least one visible character and no bidirectional controls (see \`Pet.name\`); they are stored exactly as sent.
- **Changes** are JSON Merge Patches (RFC 7396). Every answer carrying one animal has a strong \`ETag\` (\`"<id>-<version>"\`); send it in \`If-Match\` to change or remove the animal only if nobody changed it since (else 412 \`precondition_failed\`). Without \`If-Match\` a change applies unconditionally.
- **Removed animals** are deleted, not remembered: their ids answer 404 (not 410) and are never reused.
- **Identifiers** (\`id\`, \`categoryId\`) are int64 in the range 1 to 2^53−1, the range every JSON client reads exactly; ids grow and are never reused.
- **Pagination** beyond \`limit\`: an opaque, signed \`cursor\` bound to the filters of its listing, and a \`Link: <…>; rel="next"\` header (RFC 8288); the body stays a bare array.
- **Finding animals**: \`GET /pets\` filters by \`id\` (repeatable, up to ${MAX_IDS_PER_LISTING}), \`categoryId\`, \`status\` and \`name\`, a prefix compared after Unicode NFKC and Unicode full case folding, alike on every database.
- **Size limit**: request bodies of at most ${options.bodyLimitBytes} bytes (configurable); larger ones answer 413.
- **Rate limits**: ${
    options.rateLimitPerMinute === 0
      ? 'none on this deployment.'
      : `${options.rateLimitPerMinute} requests per minute per API key, in fixed one-minute windows, counted by each server process or, with Redis, shared by the fleet. Every request that presents a valid key to an operation counts, whatever its answer (errors included), and its answer carries the fields of draft-ietf-httpapi-ratelimit-headers-11: \`RateLimit-Policy: "per-key";q=${options.rateLimitPerMinute};w=60\` and \`RateLimit: "per-key";r=<left>;t=<seconds to the window's end>\`; over the limit the answer is 429 \`rate_limited\` with \`Retry-After\`, before any other check (a key without the operation's scope gets 429, not 403, once its quota is spent); a request refused before it reaches an operation (unknown path 404, other method 405, malformed request 400, \`Expect\` 417) is neither counted nor given the fields. A client address whose key-shaped tokens fail verification that many times in a minute gets 429 instead of 401 for further tokens that match no usable key; a valid key is never refused because of other keys' failures.`
  }
- **Store orders** (\`/store/orders\`, tag \`store\`) sell animals: place an order for an available animal, then approve, deliver or cancel it; the animal's status follows (see the \`store\` tag). They are **beta** (\`x-stability: beta\`): ${BETA_PROMISE}
- **Versioning**: the version is the \`/v1\` path segment. \`GET /pets/{petId}\` is deprecated and removed on ${GET_PET_SUNSET_DAY} (see its \`Deprecation\` and \`Sunset\` headers).
- Every response carries \`X-Request-Id\`; send your own (letters, digits, \`._:-\`, up to 128) to trace a call.

## Errors

Every error is \`application/json\` \`{code, message, status}\`, sometimes with \`details\`. The codes are a closed list:

| code | status | meaning |
|---|---|---|
${codes}
`;
}
