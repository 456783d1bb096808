/** HTTP for pets: each route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header, withHeaders } from '../http/responses.js';
import { ListPetsQuerySchema, NewPetSchema, PAGE_SIZE, PetIdParamsSchema, PetSchema, PetsSchema } from './pets.schemas.js';
import { createPet, getPet, listPets } from './pets.service.js';

/**
 * getPet was published already deprecated: the interface 1.0.0 of 2026-11-25 marks it so.
 * That publication is its deprecation date; its removal date is fixed by the interface.
 */
export const GET_PET_DEPRECATED_AT = new Date('2026-11-25T00:00:00Z');
export const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');
export const DEPRECATION_NOTICE_URL = '/docs#/pets/getPet';

export interface PetsRoutesOptions {
  db: Kysely<Database>;
  now: () => number;
}

const DEPRECATION_HEADERS = {
  Deprecation: header(`\`@${GET_PET_DEPRECATED_AT.getTime() / 1000}\`: deprecated since ${GET_PET_DEPRECATED_AT.toISOString().slice(0, 10)} (RFC 9745).`),
  Sunset: header(`\`${GET_PET_SUNSET_AT.toUTCString()}\`: removed from then on (RFC 8594).`),
  Link: header(`\`</v1/pets>; rel="successor-version", <${DEPRECATION_NOTICE_URL}>; rel="deprecation"; type="text/html"\``),
};

export const petsRoutes: FastifyPluginAsyncTypebox<PetsRoutesOptions> = async (app, { db, now }) => {
  app.get(
    '/pets',
    {
      config: { scope: 'pets:read' },
      schema: {
        operationId: 'listPets',
        tags: ['pets'],
        summary: 'List animals',
        description: `Returns at most \`limit\` animals in ascending id order, optionally only those of one \`status\`.

**Pagination.** When more animals follow, the response carries \`Link: </v1/pets?…&cursor=…>; rel="next"\` (RFC 8288); follow it until no such link comes. The body stays a bare JSON array. Walking the pages returns every animal exactly once, also while animals are being added: those appear on later pages. A cursor must be used with the \`status\` filter it was made for.

**Strictness.** \`limit\` must be decimal digits (\`1.5\`, \`1e2\`, \`abc\` and an empty value are refused), and unknown query parameters are refused by name.`,
        querystring: ListPetsQuerySchema,
        response: {
          200: {
            ...Type.Ref(PetsSchema),
            description: 'A page of animals.',
            headers: { Link: header('`<…>; rel="next"` when more animals follow.'), ...HEADERS.requestId, ...HEADERS.rateLimit },
          },
          400: errorResponse('A query parameter is invalid, or the cursor is.', ['validation_failed', 'invalid_cursor'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      // The schema's default fills `limit` in; the fallback only satisfies the type.
      const { limit = PAGE_SIZE.default, status, cursor } = request.query;
      const page = await listPets(db, { limit, status, cursor });
      if (page.nextCursor) {
        const next = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}), cursor: page.nextCursor });
        reply.header('link', `</v1/pets?${next}>; rel="next"`);
      }
      return page.pets;
    },
  );

  app.post(
    '/pets',
    {
      config: { scope: 'pets:write' },
      schema: {
        operationId: 'createPet',
        tags: ['pets'],
        summary: 'Add an animal',
        description: `Adds an animal and answers it with the \`id\` the service assigned. \`status\` defaults to \`available\`.

The body is checked strictly and never altered: \`"5"\` is not an integer, \`1.5\` is not an integer, \`null\` is not a value, an integer beyond 2^53−1 is refused rather than rounded, unknown fields are refused by name, and \`id\` is refused because the service assigns it. The body must be \`application/json\` and at most the configured size (64 KiB by default).`,
        body: Type.Ref(NewPetSchema),
        response: {
          201: {
            ...Type.Ref(PetSchema),
            description: 'The animal was added.',
            headers: { Location: header('The path of the new animal, `/v1/pets/{id}`.'), ...HEADERS.requestId, ...HEADERS.rateLimit },
          },
          400: errorResponse('The body is not valid JSON, or a field is missing or invalid.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
          413: errorResponse('The body is larger than the limit.', ['payload_too_large'], HEADERS.rateLimit),
          415: errorResponse('The body is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...COMMON_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const pet = await createPet(db, request.body, now);
      return reply.code(201).header('location', `/v1/pets/${pet.id}`).send(pet);
    },
  );

  app.get(
    '/pets/:petId',
    {
      config: { scope: 'pets:read' },
      schema: {
        operationId: 'getPet',
        tags: ['pets'],
        summary: 'Fetch one animal (deprecated)',
        deprecated: true,
        description: `**Deprecated** since ${GET_PET_DEPRECATED_AT.toISOString().slice(0, 10)} (interface 1.0.0 was published with it deprecated) and **removed on ${GET_PET_SUNSET_AT.toUTCString()}**: from that instant it answers 410 \`operation_removed\`. Use \`GET /v1/pets\` with the \`status\` filter instead.

Every answer carries \`Deprecation: @${GET_PET_DEPRECATED_AT.getTime() / 1000}\` (RFC 9745), \`Sunset: ${GET_PET_SUNSET_AT.toUTCString()}\` (RFC 8594) and \`Link\` to the successor and to this notice.`,
        params: PetIdParamsSchema,
        // No query parameters: one sent by mistake (a filter, say) is refused, not ignored.
        querystring: Type.Object({}, { additionalProperties: false }),
        // Every answer of this operation, errors included, carries the deprecation headers.
        response: withHeaders(
          {
            200: { ...Type.Ref(PetSchema), description: 'The animal.', headers: { ...HEADERS.requestId, ...HEADERS.rateLimit } },
            400: errorResponse('The petId is not an integer from 1 to 2^53−1, or a query parameter was sent.', ['validation_failed'], HEADERS.rateLimit, {
              validation_failed: 'path.petId must be an integer written in decimal digits',
            }),
            404: errorResponse('No animal has this id.', ['pet_not_found'], HEADERS.rateLimit),
            410: errorResponse('The operation has passed its sunset date.', ['operation_removed']),
            ...COMMON_ERROR_RESPONSES,
          },
          DEPRECATION_HEADERS,
        ),
      },
      onRequest: async () => {
        if (now() >= GET_PET_SUNSET_AT.getTime()) {
          throw new AppError('operation_removed', `GET /v1/pets/{petId} was removed on ${GET_PET_SUNSET_AT.toISOString().slice(0, 10)}; use GET /v1/pets`);
        }
      },
      onSend: async (_request, reply, payload) => {
        reply.header('deprecation', `@${GET_PET_DEPRECATED_AT.getTime() / 1000}`);
        reply.header('sunset', GET_PET_SUNSET_AT.toUTCString());
        reply.header('link', `</v1/pets>; rel="successor-version", <${DEPRECATION_NOTICE_URL}>; rel="deprecation"; type="text/html"`);
        return payload;
      },
    },
    async (request) => getPet(db, request.params.petId),
  );
};

