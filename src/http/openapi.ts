/**
 * The contract document: generated from the route schemas by @fastify/swagger, served at
 * /v1/openapi.json, and browsable at /docs where a user can paste a key and try each operation.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../errors.js';
import { docsBranding } from './docs-branding.js';

export interface OpenApiOptions {
  publicBaseUrl: string;
  stagingBaseUrl: string;
  bodyLimitBytes: number;
  keyCacheTtlMs: number;
  rateLimitPerMinute: number;
}

const API_VERSION_PREFIX = '/v1';

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Animal Store API',
        version: '1.0.0',
        summary: "A store's catalogue of animals: list, add and fetch.",
        description: describeApi(options),
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [
        { url: options.publicBaseUrl, description: 'Production' },
        { url: options.stagingBaseUrl, description: 'Staging: same paths, separate data and keys' },
      ],
      tags: [{ name: 'pets', description: 'The animals of the store.' }],
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key made by the operator with `animal-store keys create --name NAME`, sent as `Authorization: Bearer <API_KEY>`.',
          },
        },
      },
    },
    // Paths are written relative to the servers, which already end in /v1.
    transform: ({ schema, url }) => ({ schema, url: url.startsWith(API_VERSION_PREFIX) ? url.slice(API_VERSION_PREFIX.length) : url }),
    // Shared schemas keep their own names as components (Pet, NewPet, Error…).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { persistAuthorization: true, deepLinking: true, tryItOutEnabled: true },
    ...docsBranding(),
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

function describeApi(options: OpenApiOptions): string {
  const codes = Object.entries(ERROR_CODES)
    .map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`)
    .join('\n');
  return `Keeps the catalogue of animals offered by a store. Every operation exchanges JSON and needs \`Authorization: Bearer <API_KEY>\`.

## Decisions this API makes

- **API keys** are issued by the operator with the \`animal-store keys create\` command, shown once, stored only as a SHA-256 hash, and may expire (\`--expires-in\`) and be revoked (\`keys revoke\`). A revoked key stops working within ${Math.ceil(options.keyCacheTtlMs / 1000)} seconds on every instance.
- **Default status** of a new animal: \`available\`. Any status may follow any other.
- **Names** have 1 to 200 characters and not only white space; they are stored exactly as sent.
- **Identifiers** (\`id\`, \`categoryId\`) are int64 in the range 1 to 2^53−1, the range every JSON client reads exactly; ids grow and are never reused.
- **Pagination** beyond \`limit\`: an opaque \`cursor\` and a \`Link: <…>; rel="next"\` header (RFC 8288); the body stays a bare array.
- **Size limit**: request bodies of at most ${options.bodyLimitBytes} bytes (configurable); larger ones answer 413.
- **Rate limits**: ${
    options.rateLimitPerMinute === 0
      ? 'none on this deployment.'
      : `${options.rateLimitPerMinute} requests per minute per API key, in fixed one-minute windows counted by each server process. Authenticated answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); over the limit the answer is 429 \`rate_limited\` with \`Retry-After\`. A client address whose keys fail verification that many times in a minute is refused with 429 before any further key lookup (keys already verified still pass).`
  }
- **Store orders** (\`GET /store/orders\`) are not part of this version: the interface shows no parameters or payloads for them, so the path answers 404 \`route_not_found\`.
- **Versioning**: the version is the \`/v1\` path segment. \`GET /pets/{petId}\` is deprecated and removed on 5 December 2030 (see its \`Deprecation\` and \`Sunset\` headers).
- Every response carries \`X-Request-Id\`; send your own (letters, digits, \`._:-\`, up to 128) to trace a call.

## Errors

Every error is \`application/json\` \`{code, message, status}\`, sometimes with \`details\`. The codes are a closed list:

| code | status | meaning |
|---|---|---|
${codes}
`;
}
