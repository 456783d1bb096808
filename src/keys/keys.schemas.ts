/**
 * API keys as TypeBox schemas: they validate requests, serialise responses and generate the
 * OpenAPI document. A key's secret appears in one schema only, the answer to its creation.
 */
import { type Static, Type } from '@sinclair/typebox';
import { DISPLAY_TEXT_PATTERN, DISPLAY_TEXT_RULE } from '../display-text.js';
import { CURSOR_MAX_LENGTH } from '../pagination/cursor.js';
import { pageLimitSchema } from '../pagination/page-size.js';
import { MAX_EXACT_INTEGER } from '../pets/pets.schemas.js';
import { KEY_NAME_MAX_LENGTH } from './keys.service.js';
import { type Scope, SCOPE_DESCRIPTIONS, SCOPES } from './scopes.js';

const SAMPLE_KEY = 'ask_Jx1Qm0Vb7rT2c9LwS4yZp8HdK3nF6gA5eU0oIiRtYq4';
const SAMPLE_TIME = '2026-11-28T09:30:00.000Z';

const int64 = (description: string, example: number) =>
  Type.Integer({ format: 'int64', minimum: 1, maximum: MAX_EXACT_INTEGER, description, examples: [example] });
const timestamp = (description: string) => Type.String({ format: 'date-time', description, examples: [SAMPLE_TIME] });
const timestampOrNull = (description: string) => Type.Union([timestamp(description), Type.Null()], { description });

const scopesSchema = Type.Array(Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] }), {
  minItems: 1,
  maxItems: SCOPES.length,
  uniqueItems: true,
  description: `What the key may do, each scope once: ${SCOPES.map((scope) => `\`${scope}\` (${SCOPE_DESCRIPTIONS[scope]})`).join(', ')}.`,
  examples: [['pets:read', 'orders:read']],
});

const nameSchema = Type.String({
  minLength: 1,
  maxLength: KEY_NAME_MAX_LENGTH,
  pattern: DISPLAY_TEXT_PATTERN,
  description: `What the key is for, for the people managing keys: 1 to ${KEY_NAME_MAX_LENGTH} characters with ${DISPLAY_TEXT_RULE}. White space around it is removed.`,
  examples: ['shop front'],
});

const keyProperties = {
  id: int64('Unique identifier assigned by the service, never reused.', 7),
  name: nameSchema,
  prefix: Type.String({
    description: 'The first 12 characters of the key (`ask_` and 8 more): enough to tell keys apart in listings and logs, never enough to use one.',
    examples: [SAMPLE_KEY.slice(0, 12)],
  }),
  scopes: scopesSchema,
  createdAt: timestamp('When the key was made: RFC 3339, UTC, millisecond precision.'),
  expiresAt: timestampOrNull('When the key stops working; `null` when it never expires.'),
  lastUsedAt: timestampOrNull(
    'About when the key last passed authentication: uses are written in batches (every KEY_LAST_USED_FLUSH_MS), so a use may take that long to show. `null` when never used since this was recorded.',
  ),
  revokedAt: timestampOrNull('When the key was revoked; `null` while it is not.'),
};

const SAMPLE_API_KEY = {
  id: 7,
  name: 'shop front',
  prefix: SAMPLE_KEY.slice(0, 12),
  scopes: ['pets:read', 'orders:read'],
  createdAt: SAMPLE_TIME,
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
};

export const ApiKeySchema = Type.Object(keyProperties, {
  $id: 'ApiKey',
  additionalProperties: false,
  description: 'An API key as the store keeps it: everything but the key itself, which only its creation answers. **Beta.**',
  examples: [SAMPLE_API_KEY],
});
export type ApiKey = Static<typeof ApiKeySchema>;

export const IssuedApiKeySchema = Type.Object(
  {
    ...keyProperties,
    key: Type.String({
      pattern: '^ask_[A-Za-z0-9_-]{43}$',
      description:
        'The key: `ask_` and 256 random bits in base64url, sent as `Authorization: Bearer <key>`. **Shown only in this answer**: the store keeps its SHA-256, never the key.',
      examples: [SAMPLE_KEY],
    }),
  },
  {
    $id: 'IssuedApiKey',
    additionalProperties: false,
    description: 'A new API key with the key itself, answered once, when it is made. **Beta.**',
    examples: [{ ...SAMPLE_API_KEY, key: SAMPLE_KEY }],
  },
);
export type IssuedApiKey = Static<typeof IssuedApiKeySchema>;

export const ApiKeysSchema = Type.Array(Type.Ref(ApiKeySchema), {
  $id: 'ApiKeys',
  description:
    'A page of API keys in ascending id order, revoked and expired ones included. When more follow, the response carries a `Link` header with `rel="next"`.',
});

export const CurrentApiKeySchema = Type.Object(
  {
    id: keyProperties.id,
    name: keyProperties.name,
    prefix: keyProperties.prefix,
    scopes: { ...scopesSchema, minItems: 0 },
    expiresAt: keyProperties.expiresAt,
  },
  {
    $id: 'CurrentApiKey',
    additionalProperties: false,
    description: 'The API key that made the request: who it is and what it may do. **Beta.**',
    examples: [{ id: 7, name: 'shop front', prefix: SAMPLE_KEY.slice(0, 12), scopes: ['pets:read', 'orders:read'], expiresAt: null }],
  },
);
export type CurrentApiKey = Static<typeof CurrentApiKeySchema>;

export const NewApiKeySchema = Type.Object(
  {
    name: nameSchema,
    scopes: {
      ...scopesSchema,
      description: `${scopesSchema.description} At least one; only scopes the API key making the request holds itself (403 \`insufficient_scope\` otherwise).`,
    },
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'When the key stops working: RFC 3339, in the future. Absent: it never expires, unless the API key making the request expires, in which case the new key must expire no later than it (400 otherwise).',
        // In the future for as long as anyone reads this example.
        examples: ['2099-12-31T23:59:59Z'],
      }),
    ),
  },
  {
    $id: 'NewApiKey',
    additionalProperties: false,
    description: 'An API key to make. Checked strictly: no type is converted, `null` is not a value, and any other field is refused by name.',
    examples: [{ name: 'shop front', scopes: ['pets:read', 'orders:read'] }],
  },
);
export type NewApiKey = Static<typeof NewApiKeySchema>;

export const ListApiKeysQuerySchema = Type.Object(
  {
    limit: pageLimitSchema('keys'),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: CURSOR_MAX_LENGTH,
        description:
          'Opaque position from the `Link: <…>; rel="next"` header of the previous page, signed by the service; `limit` may change between pages. A cursor that was altered, made by anyone else or for another listing answers 400 `invalid_cursor`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListApiKeysQuery = Static<typeof ListApiKeysQuerySchema>;

/** The path parameters of one key's operations; `example` is the sample key it acts on (SAMPLE_STORE). */
export const keyIdParamsSchema = (example: number) => Type.Object({ keyId: int64('Identifier of the API key, as `listApiKeys` shows it.', example) });
