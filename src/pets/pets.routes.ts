/** HTTP for pets: each route declares its schemas and calls one service function. */
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { SAMPLE_STORE } from '../docs-examples.js';
import { AppError } from '../errors.js';
import { parseIfMatch } from '../http/if-match.js';
import { keptAnswers } from '../http/kept-answers.js';
import { acceptJsonAs, JSON_MEDIA_TYPE, MERGE_PATCH_MEDIA_TYPE } from '../http/json-body.js';
import { refuseRemovalOfRequired } from '../http/merge-patch.js';
import { COMMON_ERROR_RESPONSES, errorResponse, HEADERS, header, WRITE_ERROR_RESPONSES, withHeaders } from '../http/responses.js';
import { DELETE_PET_DESCRIPTION, ETAG_HEADER, IF_MATCH_HEADER, UPDATE_PET_DESCRIPTION } from './pets.docs.js';
import { changeConditionOf, petEtag } from './pets.etag.js';
import { GET_PET_DEPRECATED_DAY, GET_PET_DEPRECATION_HEADERS, GET_PET_REMOVED_MESSAGE, GET_PET_REPLACEMENT, GET_PET_SUNSET_AT } from './get-pet-deprecation.js';
import { type ListPetsQuery, ListPetsQuerySchema, NewPetSchema, PAGE_SIZE, petIdParamsSchema, PetPatchSchema, PetSchema, PetsSchema } from './pets.schemas.js';
import { createPet, deletePet, getPet, listPets, updatePet } from './pets.service.js';

export interface PetsRoutesOptions {
  db: Kysely<Database>;
  now: () => number;
  /** The secret cursors are signed with (pagination/cursor-secret.ts). */
  cursorSecret: () => Promise<string>;
}

const DEPRECATION_HEADERS = {
  Deprecation: header(`\`${GET_PET_DEPRECATION_HEADERS.Deprecation}\`: deprecated since ${GET_PET_DEPRECATED_DAY} (RFC 9745).`),
  Sunset: header(`\`${GET_PET_DEPRECATION_HEADERS.Sunset}\`: removed from then on (RFC 8594).`),
  Link: header(`\`${GET_PET_DEPRECATION_HEADERS.Link}\``),
};

export const petsRoutes: FastifyPluginAsyncTypebox<PetsRoutesOptions> = async (app, { db, now, cursorSecret }) => {
  // Serialized answers kept until anything is committed (http/kept-answers.ts; SQLite only): a
  // page of 20 served again costs a lookup instead of a query and a serialization (docs/performance.md).
  // At most 128 pages of at most 100 pets of at most 200 characters: about 10 MB at worst.
  const sendKeptPage = keptAnswers(db, { maxEntries: 128 });
  const sendKeptPet = keptAnswers(db, { maxEntries: 1024 });

  app.get(
    '/pets',
    {
      config: { scope: 'pets:read' },
      schema: {
        operationId: 'listPets',
        tags: ['pets'],
        summary: 'List animals',
        description: `Returns at most \`limit\` animals in ascending id order. Filters narrow the listing and combine (every filter given must hold): \`status\`, \`categoryId\`, \`name\` (a case-insensitive prefix of the name) and \`id\` (one or more ids: \`?id=7&id=9\`, the way to read animals by id).

**Pagination.** When more animals follow, the response carries \`Link: </v1/pets?…&cursor=…>; rel="next"\` (RFC 8288); follow it until no such link comes. The body stays a bare JSON array. Walking the pages returns every matching animal that existed when the walk began exactly once, in id order. An animal added during the walk may or may not come: on SQLite it does (one writer commits ids in order), on PostgreSQL ids commit in any order, so one with an id below the walk's position is not met; a client that must mirror the store exactly follows the events feed (\`GET /v1/events\`). Cursors are signed: one that was altered or not made by this service, or used with other filters than it was made for, answers 400 \`invalid_cursor\`; \`limit\` may change between pages.

**Strictness.** Integers (\`limit\`, \`categoryId\`, each \`id\`) must be decimal digits (\`1.5\`, \`1e2\`, \`abc\` and an empty value are refused). Only \`id\` may be repeated; any other parameter given twice, and unknown parameters, are refused by name.`,
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
    // The answer depends on the URL alone, so the URL, as sent, is the key of the page kept.
    (request, reply) =>
      sendKeptPage(reply, request.url, async () => {
        // The schema's default fills `limit` in; the fallback only satisfies the type.
        const query = { ...request.query, limit: request.query.limit ?? PAGE_SIZE.default };
        const found = await listPets(db, query, await cursorSecret());
        const headers = found.nextCursor === undefined ? undefined : { link: `</v1/pets?${nextPageQuery(query, found.nextCursor)}>; rel="next"` };
        return { value: found.pets, headers };
      }),
  );

  app.post(
    '/pets',
    {
      config: { scope: 'pets:write', idempotent: true },
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
            headers: { Location: header('The path of the new animal, `/v1/pets/{id}`.'), ...ETAG_HEADER, ...HEADERS.requestId, ...HEADERS.rateLimit },
          },
          400: errorResponse('The body is not valid JSON, or a field is missing or invalid.', ['validation_failed', 'malformed_json'], HEADERS.rateLimit),
          413: errorResponse('The body is larger than the limit.', ['payload_too_large'], HEADERS.rateLimit),
          415: errorResponse('The body is not `application/json` in UTF-8.', ['unsupported_media_type'], HEADERS.rateLimit),
          ...WRITE_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { pet, version } = await createPet(db, request.body, now);
      return reply
        .code(201)
        .header('location', `/v1/pets/${pet.id}`)
        .header('etag', petEtag({ id: pet.id, version }))
        .send(pet);
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
        description: `**Deprecated** since ${GET_PET_DEPRECATED_DAY} (interface 1.0.0 was published with it deprecated) and **removed on ${GET_PET_DEPRECATION_HEADERS.Sunset}**: from that instant it answers 410 \`operation_removed\`. Use \`${GET_PET_REPLACEMENT}\` instead: it answers a one-animal array, or \`[]\` when no animal has the id.

Every answer carries \`Deprecation: ${GET_PET_DEPRECATION_HEADERS.Deprecation}\` (RFC 9745), \`Sunset: ${GET_PET_DEPRECATION_HEADERS.Sunset}\` (RFC 8594) and \`Link\` to the successor and to this notice.`,
        params: petIdParamsSchema(SAMPLE_STORE.petToRead),
        // No query parameters: one sent by mistake (a filter, say) is refused, not ignored.
        querystring: Type.Object({}, { additionalProperties: false }),
        // Every answer of this operation, errors included, carries the deprecation headers.
        response: withHeaders(
          {
            200: { ...Type.Ref(PetSchema), description: 'The animal.', headers: { ...ETAG_HEADER, ...HEADERS.requestId, ...HEADERS.rateLimit } },
            400: errorResponse('The petId is not an integer from 1 to 2^53−1, or a query parameter was sent.', ['validation_failed'], HEADERS.rateLimit, {
              validation_failed: 'path.petId must be an integer written in decimal digits',
            }),
            404: errorResponse('No animal has this id.', ['pet_not_found'], HEADERS.rateLimit),
            410: errorResponse('The operation has passed its sunset date.', ['operation_removed'], HEADERS.rateLimit),
            ...COMMON_ERROR_RESPONSES,
          },
          DEPRECATION_HEADERS,
        ),
      },
      onRequest: (_request, _reply, done) => {
        if (now() >= GET_PET_SUNSET_AT.getTime()) {
          throw new AppError('operation_removed', GET_PET_REMOVED_MESSAGE);
        }
        done();
      },
      onSend: (_request, reply, payload, done) => {
        reply.header('deprecation', GET_PET_DEPRECATION_HEADERS.Deprecation);
        reply.header('sunset', GET_PET_DEPRECATION_HEADERS.Sunset);
        reply.header('link', GET_PET_DEPRECATION_HEADERS.Link);
        done(null, payload);
      },
    },
    (request, reply) => {
      const { petId } = request.params;
      return sendKeptPet(reply, `pet ${petId}`, async () => {
        const { pet, version } = await getPet(db, petId);
        return { value: pet, headers: { etag: petEtag({ id: pet.id, version }) } };
      });
    },
  );

  const conditionOf = (ifMatch: string | undefined, petId: number) => changeConditionOf(parseIfMatch(ifMatch), petId);
  const IfMatchHeadersSchema = Type.Object({ 'If-Match': Type.Optional(Type.String({ description: IF_MATCH_HEADER })) });

  // Merge patches are taken only here: createPet keeps answering 415 to them.
  await app.register(async (patchScope) => {
    acceptJsonAs(patchScope, MERGE_PATCH_MEDIA_TYPE);
    const mediaTypes = [MERGE_PATCH_MEDIA_TYPE, JSON_MEDIA_TYPE];
    patchScope.withTypeProvider<TypeBoxTypeProvider>().patch(
      '/pets/:petId',
      {
        config: { scope: 'pets:write', bodyMediaTypes: mediaTypes, idempotent: true },
        schema: {
          operationId: 'updatePet',
          tags: ['pets'],
          summary: 'Change an animal',
          description: UPDATE_PET_DESCRIPTION,
          consumes: mediaTypes,
          params: petIdParamsSchema(SAMPLE_STORE.petToChange),
          headers: IfMatchHeadersSchema,
          querystring: Type.Object({}, { additionalProperties: false }),
          body: Type.Ref(PetPatchSchema),
          response: {
            200: { ...Type.Ref(PetSchema), description: 'The animal as changed.', headers: { ...ETAG_HEADER, ...HEADERS.requestId, ...HEADERS.rateLimit } },
            400: errorResponse(
              'The petId, If-Match or the body is invalid, or the body is not valid JSON.',
              ['validation_failed', 'malformed_json'],
              HEADERS.rateLimit,
            ),
            404: errorResponse('No animal has this id.', ['pet_not_found'], HEADERS.rateLimit),
            409: errorResponse(
              "The patch changes the status of an animal the store's orders hold: nothing was changed.",
              ['pet_has_open_order', 'pet_sold_by_order'],
              HEADERS.rateLimit,
            ),
            412: errorResponse('If-Match was given and the animal has changed since: nothing was changed.', ['precondition_failed'], HEADERS.rateLimit),
            413: errorResponse('The body is larger than the limit.', ['payload_too_large'], HEADERS.rateLimit),
            415: errorResponse(
              'The body is neither `application/merge-patch+json` nor `application/json` in UTF-8.',
              ['unsupported_media_type'],
              HEADERS.rateLimit,
            ),
            ...WRITE_ERROR_RESPONSES,
          },
        },
        preValidation: async (request) => refuseRemovalOfRequired(request.body, Object.keys(PetPatchSchema.properties)),
      },
      async (request, reply) => {
        const { petId } = request.params;
        const { pet, version } = await updatePet(db, petId, request.body, conditionOf(request.headers['if-match'], petId));
        reply.header('etag', petEtag({ id: pet.id, version }));
        return pet;
      },
    );
  });

  app.delete(
    '/pets/:petId',
    {
      config: { scope: 'pets:write', idempotent: true },
      schema: {
        operationId: 'deletePet',
        tags: ['pets'],
        summary: 'Remove an animal',
        description: DELETE_PET_DESCRIPTION,
        params: petIdParamsSchema(SAMPLE_STORE.petToRemove),
        headers: IfMatchHeadersSchema,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: {
          // Type null: the OpenAPI document then shows no content for it.
          204: Type.Null({ description: 'The animal was removed. No body.', headers: { ...HEADERS.requestId, ...HEADERS.rateLimit } }),
          400: errorResponse('The petId or If-Match is invalid.', ['validation_failed'], HEADERS.rateLimit),
          404: errorResponse('No animal has this id (any more).', ['pet_not_found'], HEADERS.rateLimit),
          409: errorResponse('The animal has an open order: it was not removed.', ['pet_has_open_order'], HEADERS.rateLimit),
          412: errorResponse('If-Match was given and the animal has changed since: it was not removed.', ['precondition_failed'], HEADERS.rateLimit),
          ...WRITE_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { petId } = request.params;
      await deletePet(db, petId, conditionOf(request.headers['if-match'], petId));
      return reply.code(204).send(null);
    },
  );
};

/** The query of the next page: the same filters and limit, in the order the client can read, and the cursor. */
function nextPageQuery(query: ListPetsQuery & { limit: number }, cursor: string): string {
  // Every value but the name is digits, a status word or the base64url cursor: nothing to encode.
  let next = `limit=${query.limit}`;
  if (query.status !== undefined) next += `&status=${query.status}`;
  if (query.categoryId !== undefined) next += `&categoryId=${query.categoryId}`;
  if (query.name !== undefined) next += `&${new URLSearchParams({ name: query.name })}`;
  for (const id of query.id ?? []) next += `&id=${id}`;
  return `${next}&cursor=${cursor}`;
}
