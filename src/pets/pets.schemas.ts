/**
 * The pets API contract as TypeBox schemas: they validate requests, serialise responses and
 * generate the OpenAPI document, so the three cannot drift apart.
 */
import { type Static, Type } from '@sinclair/typebox';
import { PAGE_SIZE, pageLimitSchema } from '../pagination/page-size.js';
import type { PetStatus } from '../db/database.js';
import { STORABLE_TEXT_PATTERN } from '../http/validation.js';
import { DISPLAY_TEXT_PATTERN, DISPLAY_TEXT_RULE } from '../display-text.js';
import { CASE_FOLDING_UNICODE_VERSION } from './case-folding-table.js';

/** Largest integer JSON numbers carry exactly in JavaScript (2^53−1); int64 inputs are bounded by it. */
export const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;
const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[];
export const DEFAULT_PET_STATUS: PetStatus = 'available';
// Re-exported: the pets module's callers know the page size by this name.
export { PAGE_SIZE };
export const NAME_MAX_LENGTH = 200;
/** Most ids one listing may ask for: as many as one page can hold. */
export const MAX_IDS_PER_LISTING = PAGE_SIZE.max;

export const PetStatusSchema = Type.Unsafe<PetStatus>({
  $id: 'PetStatus',
  type: 'string',
  enum: [...PET_STATUSES],
  description:
    "Availability of an animal. `updatePet` may set any status, except while the store's orders hold the animal: an open order keeps it `pending`, and a delivered order keeps it `sold` (see the `store` tag).",
});

const int64 = (description: string, example: number) =>
  Type.Integer({ format: 'int64', minimum: 1, maximum: MAX_EXACT_INTEGER, description, examples: [example] });

const nameSchema = Type.String({
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  // The whole display-text rule, as a pattern any JSON Schema tool reads (a custom format is ignored by most).
  pattern: DISPLAY_TEXT_PATTERN,
  description: `The animal's name: 1 to ${NAME_MAX_LENGTH} characters (Unicode code points, so an emoji counts once), not only white space, without NUL or unpaired surrogates. It needs ${DISPLAY_TEXT_RULE}. Stored and returned exactly as sent, without trimming.`,
  examples: ['Rex'],
});

const categoryIdSchema = int64(
  'Identifier of the category the animal belongs to: an integer from 1 to 2^53−1 (9007199254740991), the largest that every JSON client reads exactly. Category records themselves are not part of this API yet.',
  3,
);

export const NewPetSchema = Type.Object(
  {
    name: nameSchema,
    categoryId: categoryIdSchema,
    // Inline rather than a $ref to PetStatus, so the default can be documented beside it.
    status: Type.Optional(
      Type.Unsafe<PetStatus>({
        type: 'string',
        enum: [...PET_STATUSES],
        default: DEFAULT_PET_STATUS,
        description: `Availability status; \`${DEFAULT_PET_STATUS}\` when omitted.`,
      }),
    ),
  },
  {
    $id: 'NewPet',
    additionalProperties: false,
    description:
      'An animal to add. Fields are checked strictly: no type is converted (`"5"` is not an integer), `null` is not a value, an unknown field is rejected by name, and `id` is rejected because the service assigns it.',
    examples: [{ name: 'Rex', categoryId: 3, status: 'available' }],
  },
);
export type NewPet = Static<typeof NewPetSchema>;

export const PetPatchSchema = Type.Object(
  {
    name: Type.Optional(nameSchema),
    categoryId: Type.Optional(categoryIdSchema),
    status: Type.Optional(Type.Unsafe<PetStatus>({ $ref: 'PetStatus' })),
  },
  {
    $id: 'PetPatch',
    additionalProperties: false,
    minProperties: 1,
    description:
      'A JSON Merge Patch (RFC 7396) of an animal: the fields given replace the stored ones, the others stay. Checked as strictly as `NewPet`: no type is converted, an unknown field is rejected by name, and `id` is rejected because it never changes. `null`, which in a merge patch removes a field, is refused: every field of a pet is required. An empty patch `{}` is refused too.',
    examples: [{ status: 'sold' }, { name: 'Rex II', categoryId: 4 }],
  },
);
export type PetPatch = Static<typeof PetPatchSchema>;

export const PetSchema = Type.Object(
  {
    id: int64('Unique identifier assigned by the service: it grows with each new animal and is never reused.', 42),
    name: nameSchema,
    categoryId: categoryIdSchema,
    status: Type.Unsafe<PetStatus>({ $ref: 'PetStatus' }),
  },
  { $id: 'Pet', additionalProperties: false, examples: [{ id: 42, name: 'Rex', categoryId: 3, status: 'available' }] },
);
export type Pet = Static<typeof PetSchema>;

export const PetsSchema = Type.Array(Type.Ref(PetSchema), {
  $id: 'Pets',
  description: 'A page of animals in ascending id order. When more follow, the response carries a `Link` header with `rel="next"`.',
  examples: [
    [
      { id: 41, name: 'Bella', categoryId: 1, status: 'available' },
      { id: 42, name: 'Rex', categoryId: 3, status: 'available' },
    ],
  ],
});

export const ListPetsQuerySchema = Type.Object(
  {
    limit: pageLimitSchema('animals'),
    status: Type.Optional(Type.Unsafe<PetStatus>({ $ref: 'PetStatus', description: 'Return only animals with this status.' })),
    categoryId: Type.Optional(int64('Return only animals of this category: an integer from 1 to 2^53−1 written in decimal digits.', 3)),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: NAME_MAX_LENGTH,
        pattern: STORABLE_TEXT_PATTERN,
        description: `Return only animals whose name starts with this text, ignoring case and compatibility forms: both sides are compared after Unicode NFKC and Unicode ${CASE_FOLDING_UNICODE_VERSION} full case folding, the same whatever the language (\`ñan\` and \`ÑAN\` find \`Ñandú\`, \`rex\` finds \`Ｒｅｘ\`; \`ẞ\`, \`ß\`, \`SS\` and \`ss\` are one, so \`STRASSE\` finds \`Straße\` and \`ß\` finds \`ẞtrasse\`). Accents and white space count (\`nan\` does not find \`Ñandú\`; \` Rex\` does not find \`Rex\`); \`İ\` folds to \`i\` with a combining dot above, so \`izmir\` does not find \`İzmir\`, and the dotless \`ı\` is not \`i\`. 1 to ${NAME_MAX_LENGTH} characters.`,
        examples: ['Re'],
      }),
    ),
    id: Type.Optional(
      Type.Array(int64('An animal id.', 42), {
        minItems: 1,
        maxItems: MAX_IDS_PER_LISTING,
        description: `Return only the animals with these ids: repeat the parameter (\`id=7&id=9\`), at most ${MAX_IDS_PER_LISTING} times; each an integer from 1 to 2^53−1 written in decimal digits. Ids no animal has are left out of the answer (no error); an id given twice counts once. This replaces the deprecated \`GET /v1/pets/{petId}\`: \`GET /v1/pets?id=42\` answers \`[]\` or a one-animal array.`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service. Use it with the same filters (`status`, `categoryId`, `name`, `id`) it was made for; `limit` may change between pages. A cursor that was altered, made by anyone else, or made for other filters answers 400 `invalid_cursor`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListPetsQuery = Static<typeof ListPetsQuerySchema>;

/** The path parameters of one animal's operations; `example` is the sample animal the operation acts on (SAMPLE_STORE). */
export const petIdParamsSchema = (example: number) =>
  Type.Object({
    petId: int64('Identifier of the animal.', example),
  });
