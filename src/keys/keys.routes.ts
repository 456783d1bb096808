/** HTTP for the store's API keys: each route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { SAMPLE_STORE } from '../docs-examples.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header, WRITE_ERROR_RESPONSES } from '../http/responses.js';
import { beta } from '../http/stability.js';
import { PAGE_SIZE } from '../pagination/page-size.js';
import { REALM } from '../access/authentication.js';
import { apiKeyKeptAsHash } from './key-replay.js';
import { CREATE_DESCRIPTION, CURRENT_DESCRIPTION, LIST_DESCRIPTION, REVOKE_DESCRIPTION } from './keys.docs.js';
import { createKey, describeKey, getKey, KeyScopeRefusal, listKeysPage, revokeKeyAs } from './keys.management.js';
import {
  ApiKeySchema,
  ApiKeysSchema,
  CurrentApiKeySchema,
  IssuedApiKeySchema,
  keyIdParamsSchema,
  ListApiKeysQuerySchema,
  NewApiKeySchema,
} from './keys.schemas.js';

export interface KeysRoutesOptions {
  db: Kysely<Database>;
  now: () => number;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
  /** Tells this instance, and the fleet, that a key was revoked (keys/key-revocations.ts). */
  announceRevocation: (keyId: number) => void;
}

const NO_QUERY = Type.Object({}, { additionalProperties: false });
const ANSWER_HEADERS = { ...HEADERS.requestId, ...HEADERS.rateLimit };
const NOT_FOUND = errorResponse('No API key has this id.', ['api_key_not_found'], HEADERS.rateLimit);
const BAD_ID = errorResponse('The keyId is not an integer from 1 to 2^53−1, or a query parameter was sent.', ['validation_failed'], HEADERS.rateLimit);
const SCOPE_REFUSAL = (what: string) =>
  errorResponse(`The key lacks \`keys:manage\`, or ${what}; \`WWW-Authenticate\` names the scopes it lacks.`, ['insufficient_scope'], {
    ...HEADERS.scopeChallenge,
    ...HEADERS.rateLimit,
  });

export const keysRoutes: FastifyPluginAsyncTypebox<KeysRoutesOptions> = async (app, options) => {
  const { db, now, cursorSecret } = options;

  app.get(
    '/api-keys',
    {
      config: { scope: 'keys:manage' },
      schema: {
        operationId: 'listApiKeys',
        tags: ['keys'],
        summary: 'List API keys',
        ...beta(LIST_DESCRIPTION),
        querystring: ListApiKeysQuerySchema,
        response: {
          200: {
            ...Type.Ref(ApiKeysSchema),
            description: 'A page of keys.',
            headers: { Link: header('`<…>; rel="next"` when more keys follow.'), ...ANSWER_HEADERS },
          },
          400: errorResponse('A query parameter is invalid, or the cursor is.', ['validation_failed', 'invalid_cursor'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? PAGE_SIZE.default };
      const page = await listKeysPage(db, query, await cursorSecret());
      if (page.nextCursor) {
        const next = new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor });
        reply.header('link', `</v1/api-keys?${next}>; rel="next"`);
      }
      return page.keys;
    },
  );

  app.post(
    '/api-keys',
    {
      config: { scope: 'keys:manage', idempotent: true, keptAnswer: apiKeyKeptAsHash },
      schema: {
        operationId: 'createApiKey',
        tags: ['keys'],
        summary: 'Make an API key',
        ...beta(CREATE_DESCRIPTION),
        querystring: NO_QUERY,
        body: Type.Ref(NewApiKeySchema),
        response: {
          201: {
            ...Type.Ref(IssuedApiKeySchema),
            description: 'The key was made; the key itself is in this answer only.',
            headers: { Location: header('The path of the new key, `/v1/api-keys/{id}`.'), ...ANSWER_HEADERS },
          },
          400: errorResponse(
            'The body is not valid JSON, or a field is missing or invalid (`expiresAt` in the past, later than 9999-12-31T23:59:59.999Z in UTC, or later than the expiry of the key making the request).',
            ['validation_failed', 'malformed_json'],
            HEADERS.rateLimit,
          ),
          409: errorResponse(
            'A retry with the `Idempotency-Key` of an earlier request, which made a key: that key is not shown again.',
            ['api_key_already_issued'],
            HEADERS.rateLimit,
          ),
          413: errorResponse('The body is larger than the limit.', ['payload_too_large'], HEADERS.rateLimit),
          415: errorResponse('The body is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...WRITE_ERROR_RESPONSES,
          403: SCOPE_REFUSAL('`scopes` names a scope the key lacks'),
        },
      },
    },
    async (request, reply) => {
      const issued = await withScopeChallenge(reply, () => createKey(db, request.body, request.apiKey!, now));
      return reply.code(201).header('location', `/v1/api-keys/${issued.id}`).send(issued);
    },
  );

  app.get(
    '/api-keys/current',
    {
      config: { anyKey: true },
      schema: {
        operationId: 'getCurrentApiKey',
        tags: ['keys'],
        summary: 'The API key making the request',
        ...beta(CURRENT_DESCRIPTION),
        querystring: NO_QUERY,
        response: {
          200: { ...Type.Ref(CurrentApiKeySchema), description: 'The key that made this request.', headers: ANSWER_HEADERS },
          400: errorResponse('A query parameter was sent.', ['validation_failed'], HEADERS.rateLimit),
          401: COMMON_ERROR_RESPONSES[401],
          429: COMMON_ERROR_RESPONSES[429],
          500: COMMON_ERROR_RESPONSES[500],
          503: COMMON_ERROR_RESPONSES[503],
        },
      },
    },
    async (request) => describeKey(db, request.apiKey!.id),
  );

  app.get(
    '/api-keys/:keyId',
    {
      config: { scope: 'keys:manage' },
      schema: {
        operationId: 'getApiKey',
        tags: ['keys'],
        summary: 'Fetch one API key',
        ...beta('Answers the API key with this id, without the key itself.'),
        params: keyIdParamsSchema(SAMPLE_STORE.apiKeyToRead),
        querystring: NO_QUERY,
        response: {
          200: { ...Type.Ref(ApiKeySchema), description: 'The key.', headers: ANSWER_HEADERS },
          400: BAD_ID,
          404: NOT_FOUND,
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request) => getKey(db, request.params.keyId),
  );

  app.delete(
    '/api-keys/:keyId',
    {
      config: { scope: 'keys:manage', idempotent: true },
      schema: {
        operationId: 'revokeApiKey',
        tags: ['keys'],
        summary: 'Revoke an API key',
        ...beta(REVOKE_DESCRIPTION),
        params: keyIdParamsSchema(SAMPLE_STORE.apiKeyToRevoke),
        querystring: NO_QUERY,
        response: {
          204: Type.Null({ description: 'The key is revoked (now, or it was already). No body.', headers: ANSWER_HEADERS }),
          400: BAD_ID,
          404: NOT_FOUND,
          ...WRITE_ERROR_RESPONSES,
          403: SCOPE_REFUSAL('the key to revoke holds a scope it lacks'),
        },
      },
    },
    async (request, reply) => {
      const { changed } = await withScopeChallenge(reply, () => revokeKeyAs(db, request.params.keyId, request.apiKey!, now));
      if (changed) options.announceRevocation(request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};

/** Runs `work`; a refusal for the scopes a key would hand out names them in the challenge (RFC 6750 §3.1), as the scope check does. */
async function withScopeChallenge<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof KeyScopeRefusal) reply.header('www-authenticate', `Bearer ${REALM}, error="insufficient_scope", scope="${error.scopes.join(' ')}"`);
    throw error;
  }
}
