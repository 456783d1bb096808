/** HTTP for the store's webhook endpoints: each route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { SAMPLE_STORE } from '../docs-examples.js';
import { AppError } from '../errors.js';
import { EVENT_TYPES, expandTypeFilter, type EventTypeFilter, scopeToRead } from '../events/events.types.js';
import { acceptJsonAs, JSON_MEDIA_TYPE, MERGE_PATCH_MEDIA_TYPE } from '../http/json-body.js';
import { refuseRemovalOfRequired } from '../http/merge-patch.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header, WRITE_ERROR_RESPONSES } from '../http/responses.js';
import { beta } from '../http/stability.js';
import { PAGE_SIZE } from '../pagination/page-size.js';
import { CREATE_DESCRIPTION, DELETE_DESCRIPTION, LIST_DESCRIPTION, ROTATE_DESCRIPTION, UPDATE_DESCRIPTION } from './webhook-endpoints.docs.js';
import {
  endpointIdParamsSchema,
  ListWebhookEndpointsQuerySchema,
  NewWebhookEndpointSchema,
  UpdatedWebhookEndpointSchema,
  WebhookEndpointPatchSchema,
  WebhookEndpointSchema,
  WebhookEndpointsSchema,
  WebhookEndpointWithSecretSchema,
} from './webhook-endpoints.schemas.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  EndpointScopeRefusal,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  type ActingKey,
  updateWebhookEndpoint,
} from './webhook-endpoints.service.js';
import { webhookSecretKeptAsHash } from './webhook-secret-replay.js';
import { createLookupSlots, type HostLookup, REGISTRATION_LOOKUPS_MAX, REGISTRATION_LOOKUPS_PER_KEY } from './webhook-url-policy.js';
import type { WebhookMetrics } from './webhooks.metrics.js';

export interface WebhookEndpointsRoutesOptions {
  db: Kysely<Database>;
  now: () => number;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
  /** config.webhookAllowedHosts. */
  allowedHosts: readonly string[];
  /** How host names are resolved for the URL check: c-ares in production (resolverHostLookup), a stub in tests. */
  lookup: HostLookup;
  metrics: WebhookMetrics;
}

/** At most one log line a minute says URLs were accepted without their lookup (the counter counts each). */
const UNCHECKED_LOG_INTERVAL_MS = 60_000;

const NO_QUERY = Type.Object({}, { additionalProperties: false });
const ANSWER_HEADERS = { ...HEADERS.requestId, ...HEADERS.rateLimit };
const BODY_ERRORS = {
  413: errorResponse('The body is larger than the limit.', ['payload_too_large'], HEADERS.rateLimit),
  415: errorResponse('The body is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
};
const NOT_FOUND = errorResponse('No webhook endpoint has this id.', ['webhook_endpoint_not_found'], HEADERS.rateLimit);
const BAD_ID = errorResponse('The endpointId is not an integer from 1 to 2^53−1, or a query parameter was sent.', ['validation_failed'], HEADERS.rateLimit);
/** The replay refused by webhook-secret-replay.ts. */
const SUPERSEDED =
  "a retry with the `Idempotency-Key` of an earlier request whose answer carried a secret that is no longer the endpoint's (rotated since, or the endpoint removed): that secret is not answered again";
const NEEDS_READ_SCOPE = errorResponse(
  'The key lacks `webhooks:write`, or may read none of the event types `events` names (`pets:read` for `pet.*`, `orders:read` for `order.*`).',
  ['insufficient_scope'],
  { ...HEADERS.scopeChallenge, ...HEADERS.rateLimit },
);

/** The 503 of the operations that check a URL: also when every lookup slot of the key is taken (webhook-url-policy.ts). */
const URL_CHECK_ERROR_RESPONSES = {
  ...WRITE_ERROR_RESPONSES,
  503: {
    ...WRITE_ERROR_RESPONSES[503],
    description: `Or the URL could not be checked now: ${REGISTRATION_LOOKUPS_PER_KEY} DNS lookups of URL checks of this API key are already running on this instance (nothing was written; retry after \`Retry-After\`). ${WRITE_ERROR_RESPONSES[503].description}`,
  },
};

export const webhookEndpointsRoutes: FastifyPluginAsyncTypebox<WebhookEndpointsRoutesOptions> = async (app, options) => {
  const { db, now, cursorSecret } = options;
  // One count of lookups in progress for the process (REGISTRATION_LOOKUPS_MAX, and per key): POST and PATCH share it.
  let uncheckedLoggedAt = -Infinity;
  const onUnchecked = () => {
    options.metrics.urlChecksSkipped.inc();
    if (now() - uncheckedLoggedAt < UNCHECKED_LOG_INTERVAL_MS) return;
    uncheckedLoggedAt = now();
    app.log.info(
      `every one of the ${REGISTRATION_LOOKUPS_MAX} webhook URL lookup slots is taken: URLs are accepted without their lookup (each delivery checks the address; counted in animal_store_webhook_url_checks_skipped_total)`,
    );
  };
  const context = { db, now, urlPolicy: { allowedHosts: options.allowedHosts, lookup: options.lookup }, lookupSlots: createLookupSlots(), onUnchecked };
  // The answers with a secret (create, rotate, a widening PATCH) keep its hash only; a replay after a rotation is refused.
  const keptAnswer = webhookSecretKeptAsHash(db);

  app.post(
    '/webhook-endpoints',
    {
      config: { scope: 'webhooks:write', idempotent: true, keptAnswer },
      schema: {
        operationId: 'createWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Add a webhook endpoint',
        ...beta(CREATE_DESCRIPTION),
        querystring: NO_QUERY,
        body: Type.Ref(NewWebhookEndpointSchema),
        response: {
          201: {
            ...Type.Ref(WebhookEndpointWithSecretSchema),
            description: 'The endpoint was added; its secret is in this answer only.',
            headers: { Location: header('The path of the new endpoint, `/v1/webhook-endpoints/{id}`.'), ...ANSWER_HEADERS },
          },
          400: errorResponse(
            'The body is not valid JSON, a field is missing or invalid, or the URL is refused (the message says why).',
            ['validation_failed', 'malformed_json'],
            HEADERS.rateLimit,
          ),
          409: errorResponse(
            `The store has as many endpoints as it may have; or ${SUPERSEDED}.`,
            ['webhook_endpoint_limit', 'webhook_secret_superseded'],
            HEADERS.rateLimit,
          ),
          ...BODY_ERRORS,
          ...URL_CHECK_ERROR_RESPONSES,
          403: NEEDS_READ_SCOPE,
        },
      },
    },
    async (request, reply) => {
      const endpoint = await withReadChallenge(reply, request.body.events, request.apiKey!, () =>
        createWebhookEndpoint(context, request.body, request.apiKey!),
      );
      return reply.code(201).header('location', `/v1/webhook-endpoints/${endpoint.id}`).send(endpoint);
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'listWebhookEndpoints',
        tags: ['webhooks'],
        summary: 'List webhook endpoints',
        ...beta(LIST_DESCRIPTION),
        querystring: ListWebhookEndpointsQuerySchema,
        response: {
          200: {
            ...Type.Ref(WebhookEndpointsSchema),
            description: 'A page of endpoints.',
            headers: { Link: header('`<…>; rel="next"` when more endpoints follow.'), ...ANSWER_HEADERS },
          },
          400: errorResponse('A query parameter is invalid, or the cursor is.', ['validation_failed', 'invalid_cursor'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? PAGE_SIZE.default };
      const page = await listWebhookEndpoints(db, query, await cursorSecret(), now);
      if (page.nextCursor) {
        const next = new URLSearchParams({ limit: String(query.limit), cursor: page.nextCursor });
        reply.header('link', `</v1/webhook-endpoints?${next}>; rel="next"`);
      }
      return page.endpoints;
    },
  );

  app.get(
    '/webhook-endpoints/:endpointId',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'getWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Fetch one webhook endpoint',
        ...beta('Answers the webhook endpoint with this id, without its secret.'),
        params: endpointIdParamsSchema(SAMPLE_STORE.webhookEndpointToRead),
        querystring: NO_QUERY,
        response: {
          200: { ...Type.Ref(WebhookEndpointSchema), description: 'The endpoint.', headers: ANSWER_HEADERS },
          400: BAD_ID,
          404: NOT_FOUND,
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request) => getWebhookEndpoint(db, request.params.endpointId, now),
  );

  // Merge patches are taken only here, as for updatePet.
  await app.register(async (patchScope) => {
    acceptJsonAs(patchScope, MERGE_PATCH_MEDIA_TYPE);
    const mediaTypes = [MERGE_PATCH_MEDIA_TYPE, JSON_MEDIA_TYPE];
    patchScope.withTypeProvider<TypeBoxTypeProvider>().patch(
      '/webhook-endpoints/:endpointId',
      {
        config: { scope: 'webhooks:write', bodyMediaTypes: mediaTypes, idempotent: true, keptAnswer },
        schema: {
          operationId: 'updateWebhookEndpoint',
          tags: ['webhooks'],
          summary: 'Change a webhook endpoint',
          ...beta(UPDATE_DESCRIPTION),
          consumes: mediaTypes,
          params: endpointIdParamsSchema(SAMPLE_STORE.webhookEndpointToRead),
          querystring: NO_QUERY,
          body: Type.Ref(WebhookEndpointPatchSchema),
          response: {
            200: {
              ...Type.Ref(UpdatedWebhookEndpointSchema),
              description: 'The endpoint as changed; with its new `secret` (this answer only) when it widened `allowedTypes`.',
              headers: ANSWER_HEADERS,
            },
            400: errorResponse(
              'The endpointId or the body is invalid, the body is not valid JSON, or the URL is refused (the message says why).',
              ['validation_failed', 'malformed_json'],
              HEADERS.rateLimit,
            ),
            404: NOT_FOUND,
            409: errorResponse(`${SUPERSEDED[0]!.toUpperCase()}${SUPERSEDED.slice(1)}.`, ['webhook_secret_superseded'], HEADERS.rateLimit),
            413: BODY_ERRORS[413],
            415: errorResponse(
              'The body is neither `application/merge-patch+json` nor `application/json` in UTF-8.',
              ['unsupported_media_type'],
              HEADERS.rateLimit,
            ),
            ...URL_CHECK_ERROR_RESPONSES,
            403: NEEDS_READ_SCOPE,
          },
        },
        preValidation: async (request) => refuseRemovalOfRequired(request.body, ['url', 'events', 'status']),
      },
      async (request, reply) =>
        withReadChallenge(reply, request.body.events, request.apiKey!, () =>
          updateWebhookEndpoint(context, request.params.endpointId, request.body, request.apiKey!),
        ),
    );
  });

  app.delete(
    '/webhook-endpoints/:endpointId',
    {
      config: { scope: 'webhooks:write', idempotent: true },
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Remove a webhook endpoint',
        ...beta(DELETE_DESCRIPTION),
        params: endpointIdParamsSchema(SAMPLE_STORE.webhookEndpointToRemove),
        querystring: NO_QUERY,
        response: {
          204: Type.Null({ description: 'The endpoint was removed. No body.', headers: ANSWER_HEADERS }),
          400: BAD_ID,
          404: NOT_FOUND,
          ...WRITE_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(db, request.params.endpointId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/rotate-secret',
    {
      config: { scope: 'webhooks:write', idempotent: true, keptAnswer },
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        tags: ['webhooks'],
        summary: "Replace a webhook endpoint's signing secret",
        ...beta(ROTATE_DESCRIPTION),
        params: endpointIdParamsSchema(SAMPLE_STORE.webhookEndpointToRead),
        querystring: NO_QUERY,
        response: {
          200: { ...Type.Ref(WebhookEndpointWithSecretSchema), description: 'The endpoint with its new secret, in this answer only.', headers: ANSWER_HEADERS },
          400: errorResponse('The endpointId is invalid, or a query parameter or a body was sent.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
          404: NOT_FOUND,
          409: errorResponse(`${SUPERSEDED[0]!.toUpperCase()}${SUPERSEDED.slice(1)}.`, ['webhook_secret_superseded'], HEADERS.rateLimit),
          415: errorResponse('A body was sent that is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...WRITE_ERROR_RESPONSES,
          403: errorResponse(
            'The key lacks `webhooks:write`, or may not read every event type the endpoint receives (its `allowedTypes`: `pets:read` for pet events, `orders:read` for order events): the secret would let it sign such events itself.',
            ['insufficient_scope'],
            { ...HEADERS.scopeChallenge, ...HEADERS.rateLimit },
          ),
        },
      },
      preValidation: async (request) => refuseBody(request.body),
    },
    async (request, reply) =>
      rotateWebhookEndpointSecret(db, request.params.endpointId, request.apiKey!, now).catch((error: unknown) => {
        // As the scope check does (RFC 6750 §3.1): the challenge names the read scopes the key lacks.
        if (error instanceof EndpointScopeRefusal)
          reply.header('www-authenticate', `Bearer realm="animal-store", error="insufficient_scope", scope="${error.scopes.join(' ')}"`);
        throw error;
      }),
  );
};

/**
 * Runs `work`; when the key may read none of the event types asked for, the 403 carries the
 * challenge naming the scopes that would (RFC 6750 §3.1), as the events feed's does. A patch that
 * names no `events` was refused for the stored ones: the challenge names the read scopes the key lacks.
 */
async function withReadChallenge<T>(reply: FastifyReply, events: readonly EventTypeFilter[] | undefined, key: ActingKey, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_scope') {
      const needed = new Set((events === undefined ? EVENT_TYPES : expandTypeFilter(events)).map(scopeToRead));
      const lacking = [...needed].filter((scope) => !key.scopes.includes(scope));
      reply.header('www-authenticate', `Bearer realm="animal-store", error="insufficient_scope", scope="${lacking.join(' ')}"`);
    }
    throw error;
  }
}

/** Rotation takes no body; `{}` is accepted (some clients always send one), anything else refused, not ignored. */
function refuseBody(body: unknown): void {
  if (body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)) return;
  throw new AppError('validation_failed', 'this action takes no body (or an empty JSON object)', [{ field: 'body', message: 'must be absent or {}' }]);
}
